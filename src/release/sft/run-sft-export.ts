import { splitNames } from '../contracts/canonical-record.js'
import type { ReleaseExportSteps } from '../contracts/release-kind.js'
import { exportRelease } from '../kinds/export-release.js'
import { type PreparedRecordExport, prepareRecordExport, type RecordExportOptions } from '../planning/prepare-record-export.js'
import { exportLegacySft, type SftExportReport } from './export-legacy-sft.js'

export interface RunSftExportOptions extends RecordExportOptions {
  onProgress?: (done: number, total: number) => void
}

export interface SftExportPlan extends PreparedRecordExport {
  onProgress?: (done: number, total: number) => void
}

export const sftExportSteps: ReleaseExportSteps<RunSftExportOptions, SftExportPlan, SftExportReport> = {
  stage: 'sft export',
  plan: (options) => ({
    ...prepareRecordExport(options),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  }),
  write(prepared, staging) {
    let written = 0
    return exportLegacySft({
      staging,
      dataset: prepared.dataset,
      plan: prepared.plan,
      loaded: prepared.loaded,
      canonicalSha256: prepared.canonicalSha256,
      onProgress: () => prepared.onProgress?.(++written, splitNames.length),
    })
  },
}

export async function runSftExport(options: RunSftExportOptions): Promise<SftExportReport> {
  return exportRelease(sftExportSteps, options)
}
