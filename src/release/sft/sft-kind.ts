/**
 * @module release/sft: the legacy SFT release as a release kind: stage1/stage2 rows in the columns
 * `legacySftFields`, planned from canonical records (`prepareRecordExport`), written by the fixed-shape
 * writer, read back by hyparquet, checked by `checkLegacyRow`.
 */
import type { GradingTask } from '../../envs/grading/grading-task.js'
import type { ReleaseKind } from '../contracts/release-kind.js'
import { readParquetRows } from '../parquet/parquet-rows.js'
import type { SftExportReport } from './export-legacy-sft.js'
import { legacySftFields, legacySftFormat } from './legacy-sft-rows.js'
import { type RunSftExportOptions, runSftExport, type SftExportPlan, sftExportSteps } from './run-sft-export.js'
import { legacyRowContext, runSftValidate, type SftValidationReport } from './run-sft-validate.js'
import { checkLegacyRow, type RowCheckContext } from './validate-legacy-rows.js'

export const sftKind: ReleaseKind<{
  options: RunSftExportOptions
  plan: SftExportPlan
  report: SftExportReport
  source: { task: GradingTask }
  context: RowCheckContext
  validate: Parameters<typeof runSftValidate>[0]
  validation: SftValidationReport
}> = {
  ...sftExportSteps,
  command: 'sft',
  format: legacySftFormat,
  export: runSftExport,
  rowContext: (source) => legacyRowContext(source.task),
  columns: (context) => legacySftFields(context.fields),
  readRows: async (path, context) => (await readParquetRows(path, legacySftFields(context.fields))).rows,
  checkRow: checkLegacyRow,
  validate: runSftValidate,
}
