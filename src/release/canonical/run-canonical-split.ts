/**
 * @module release/canonical: `releaseops release canonical split`: assign seeded splits to a canonical
 * dataset, written back into its `all.json` with a `split_report.json`. The dataset directory is replaced
 * atomically; an existing split is only replaced with `--overwrite`.
 */
import { copyFileSync, existsSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { withFailedAudit } from '../../io/failed-audit.js'
import { outputExistsError, publishDirectory } from '../../io/publish-directory.js'
import { writeRecordArray } from '../../io/record-array-file.js'
import { checkDatasetName, checkFormalDataset } from '../contracts/dataset-name.js'
import { invalidOption } from './invalid-option.js'
import { loadDatasetsFile } from './load-datasets-file.js'
import { loadCanonicalRecords } from './parse-canonical-records.js'
import { type SplitReport, splitRecords } from './split-records.js'

export interface RunCanonicalSplitOptions {
  canonicalDir: string
  dataset: string
  splitType: 'random' | 'group'
  groupKey?: string
  ratios?: readonly [number, number, number]
  seed?: number
  levelField?: string
  overwrite?: boolean
  formal?: boolean
  configFile?: string
  failedAudit?: string
}

export async function runCanonicalSplit(options: RunCanonicalSplitOptions): Promise<SplitReport> {
  // Checked first: the name is part of every output path, including the failed audit's.
  checkDatasetName(options.dataset)
  const directory = join(options.canonicalDir, options.dataset)
  return withFailedAudit(
    { stage: 'canonical split', output: directory, ...(options.failedAudit ? { failedAudit: options.failedAudit } : {}) },
    async () => {
      if (options.formal) {
        if (!options.configFile)
          throw invalidOption('--config-file', '--formal needs --config-file (its formal_datasets allowlist).')
        checkFormalDataset({
          names: [options.dataset],
          formal: loadDatasetsFile(options.configFile).formalDatasets,
          source: options.configFile,
        })
      }
      const ratios = options.ratios ?? [0.8, 0.1, 0.1]
      if (ratios.some((ratio) => !(ratio >= 0 && ratio <= 1)) || Math.abs(ratios[0] + ratios[1] + ratios[2] - 1) > 1e-9) {
        throw invalidOption('--train-ratio', `split ratios must lie in [0, 1] and sum to 1, got ${ratios.join(' / ')}`)
      }
      if (ratios[0] === 0) throw invalidOption('--train-ratio', 'the train ratio must be greater than zero')
      if (options.splitType === 'group' && !options.groupKey)
        throw invalidOption('--group-key', '--split-type group needs --group-key (a dotted path such as metadata.table_name)')
      if (!Number.isSafeInteger(options.seed ?? 42)) throw invalidOption('--seed', 'the seed must be an integer')
      const allPath = join(directory, 'all.json')
      if (!existsSync(allPath)) {
        throw new InvalidInputError({
          code: 'input_missing',
          path: allPath,
          message: `No canonical dataset at ${allPath}; run \`release canonical build\` first.`,
          issues: [{ code: 'input_missing', path: allPath, message: 'file not found' }],
        })
      }
      if (existsSync(join(directory, 'split_report.json')) && !options.overwrite)
        throw outputExistsError(join(directory, 'split_report.json'))
      const { records } = loadCanonicalRecords(allPath)
      const { records: split, report } = splitRecords(records, {
        splitType: options.splitType,
        ...(options.groupKey ? { groupKey: options.groupKey } : {}),
        ratios,
        seed: options.seed ?? 42,
        levelField: options.levelField ?? 'data_level',
      })
      await publishDirectory({
        target: directory,
        replace: true,
        build(staging) {
          for (const name of readdirSync(directory)) {
            if (name !== 'all.json' && name !== 'split_report.json') copyFileSync(join(directory, name), join(staging, name))
          }
          writeRecordArray(join(staging, 'all.json'), split)
          writeFileSync(join(staging, 'split_report.json'), `${JSON.stringify(report, null, 2)}\n`)
        },
      })
      return report
    },
  )
}
