/**
 * @module release/pipeline: `releaseops release pipeline`: the part-1 line plus a read-back validation of
 * the SFT release, either on given inputs or (`--demo`) on freshly generated demo data, with one
 * `pipeline_report.json` describing every stage and artifact hash.
 */
import { writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { demoDatasetName } from '../../envs/grading/demo/demo-taxonomy.js'
import { isNonEmptyDirectory, outputExistsError } from '../../io/publish-directory.js'
import { demoLayout, runDemoData } from '../demo/write-demo-data.js'
import { runSftValidate } from '../sft/run-sft-validate.js'
import { releaseLineLayout } from './release-line-layout.js'
import type { ReleaseLineOptions, ReleaseLineResult } from './release-line-options.js'
import { runReleaseLine } from './run-release-line.js'

export async function runPipeline(options: ReleaseLineOptions): Promise<ReleaseLineResult & { valid: boolean }> {
  const layout = releaseLineLayout(options.out, options.dataset)
  const line = await runReleaseLine(options)
  const started = performance.now()
  const validation = await runSftValidate({ ...options, datasetDir: layout.sftRelease, report: layout.sftValidation })
  const seconds = (performance.now() - started) / 1000
  line.timings.push({
    stage: 'sft validate',
    seconds,
    rows: Object.values(validation.splits).reduce((sum, split) => sum + split.rows, 0),
  })
  options.onStage?.('sft validate', seconds, line.timings.at(-1)?.rows ?? 0)
  const report = {
    ...line.report,
    sft_validate: { valid: validation.valid, report: relative(options.out, layout.sftValidation) },
  }
  writeFileSync(layout.report, `${JSON.stringify(report, null, 2)}\n`)
  return { report, timings: line.timings, valid: validation.valid }
}

export interface DemoPipelineOptions {
  out: string
  rows?: number
  /** The demo data's seed. */
  dataSeed?: number
  /** The split seed. */
  seed?: number
  onStage?: ReleaseLineOptions['onStage']
}

/** Demo data into `<out>/demo`, then the whole line on it, formal and with the grading manifest. */
export async function runDemoPipeline(options: DemoPipelineOptions): Promise<ReleaseLineResult & { valid: boolean }> {
  if (isNonEmptyDirectory(options.out)) throw outputExistsError(options.out)
  const demo = join(options.out, 'demo')
  await runDemoData({
    out: demo,
    ...(options.rows ? { rows: options.rows } : {}),
    ...(options.dataSeed !== undefined ? { seed: options.dataSeed } : {}),
  })
  const at = (relativePath: string) => join(demo, relativePath)
  return runPipeline({
    input: at(demoLayout.xlsx),
    mapping: at(demoLayout.mapping),
    dataset: demoDatasetName,
    configFile: at(demoLayout.datasets),
    registry: at(demoLayout.registry),
    corpus: at(demoLayout.corpus),
    taskConfig: at(demoLayout.task),
    gradingManifest: at(demoLayout.gradingManifest),
    classificationStandard: at(demoLayout.classification),
    gradingStandard: at(demoLayout.grading),
    out: options.out,
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    stripTrailingCodes: true,
    // The demo's mess includes leaves without codes on purpose; they are counted, not hidden.
    allowUnresolved: true,
    formal: true,
    ...(options.onStage ? { onStage: options.onStage } : {}),
  })
}
