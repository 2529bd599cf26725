/**
 * @module release/sft: `releaseops release sft export`: the legacy stage1/stage2 release. Checks every
 * record and the label-gap gate first, writes train/val/test Parquet into a staging directory, checks the
 * staged files, hashes them and renames the directory into place with its `export_report.json`.
 */
import { splitNames } from '../contracts/canonical-record.js'
import { withFailedAudit } from '../io/failed-audit.js'
import { publishDirectory } from '../io/publish-directory.js'
import { prepareRecordExport, type RecordExportOptions } from '../planning/prepare-record-export.js'
import { exportLegacySft, type SftExportReport } from './export-legacy-sft.js'

export interface RunSftExportOptions extends RecordExportOptions {
  onProgress?: (done: number, total: number) => void
}

export async function runSftExport(options: RunSftExportOptions): Promise<SftExportReport> {
  return withFailedAudit(
    { stage: 'sft export', output: options.outputDir, ...(options.failedAudit ? { failedAudit: options.failedAudit } : {}) },
    async () => {
      const { dataset, loaded, canonicalSha256, plan } = prepareRecordExport(options)
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
            canonicalSha256,
            onProgress: () => options.onProgress?.(++written, splitNames.length),
          })
        },
      })
      return report as SftExportReport
    },
  )
}
