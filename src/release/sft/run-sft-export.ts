/**
 * @module release/sft: `releaseops release sft export`: the legacy stage1/stage2 release. Checks every
 * record and the label-gap gate first, writes train/val/test Parquet into a staging directory, checks the
 * staged files, hashes them and renames the directory into place with its `export_report.json`.
 */
import { basename } from 'node:path'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { checkFormalExport } from '../canonical/check-formal-export.js'
import { invalidRecordsError, loadCanonicalRecords } from '../canonical/parse-canonical-records.js'
import { splitNames } from '../contracts/canonical-record.js'
import { checkDatasetName } from '../contracts/dataset-name.js'
import { withFailedAudit } from '../io/failed-audit.js'
import { isNonEmptyDirectory, outputExistsError, publishDirectory } from '../io/publish-directory.js'
import { exportLegacySft, type SftExportReport } from './export-legacy-sft.js'
import { planLegacySft } from './legacy-sft-rows.js'
import { loadTaskFor, type TaskOptions } from './task-options.js'

export interface RunSftExportOptions extends TaskOptions {
  canonical: string
  outputDir: string
  allowLabelGaps?: readonly string[]
  allowAnyLabelGap?: boolean
  formal?: boolean
  configFile?: string
  failedAudit?: string
  onProgress?: (done: number, total: number) => void
}

export async function runSftExport(options: RunSftExportOptions): Promise<SftExportReport> {
  return withFailedAudit(
    { stage: 'sft export', output: options.outputDir, ...(options.failedAudit ? { failedAudit: options.failedAudit } : {}) },
    async () => {
      if (isNonEmptyDirectory(options.outputDir)) throw outputExistsError(options.outputDir)
      const dataset = checkDatasetName(options.dataset)
      checkFormalExport({
        dataset,
        ...(options.formal ? { formal: true } : {}),
        ...(options.configFile ? { configFile: options.configFile } : {}),
      })
      const loaded = loadTaskFor(options)
      const { task } = loaded
      const canonical = loadCanonicalRecords(options.canonical)
      const source = basename(options.canonical)
      const plan = planLegacySft({
        records: canonical.records,
        task,
        source,
        ...(options.allowLabelGaps ? { allowLabelGaps: options.allowLabelGaps } : {}),
        ...(options.allowAnyLabelGap ? { allowAnyLabelGap: true } : {}),
      })
      if (plan.issues.length > 0) throw invalidRecordsError(source, plan.issues)
      if (plan.gate.status === 'failed') {
        const gaps = [...plan.gate.blocking, ...plan.gate.blocking_levels]
        throw new InvalidInputError({
          code: 'label_gap',
          path: options.canonical,
          message: `Label-gap gate failed: ${gaps.map((gap) => `${gap.label} (in ${gap.split}, not in train)`).join(', ')}. Waive with --allow-label-gaps after review.`,
          issues: gaps.map((gap) => ({
            code: 'label_gap',
            path: `${source}:split=${gap.split}`,
            message: `label ${gap.label} is absent from train`,
          })),
        })
      }
      let report: SftExportReport | undefined
      let written = 0
      await publishDirectory({
        target: options.outputDir,
        async build(staging) {
          report = await exportLegacySft({
            staging,
            dataset,
            plan,
            loaded,
            canonicalSha256: canonical.sha256,
            onProgress: () => options.onProgress?.(++written, splitNames.length),
          })
        },
      })
      return report as SftExportReport
    },
  )
}
