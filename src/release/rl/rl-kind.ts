/**
 * @module release/rl: the VeRL RL release as a release kind: a stage1/stage2 pair per planned record in
 * the five VeRL columns (`rlParquetColumns`), read back by hyparquet, checked by `checkRlRow`.
 */
import type { GradingTask } from '../../envs/grading/grading-task.js'
import type { ReleaseKind } from '../contracts/release-kind.js'
import type { PreparedRecordExport } from '../planning/prepare-record-export.js'
import { checkRlRow, type RlRowContext, rlRowContext } from './check-rl-row.js'
import { readRlParquet, rlParquetColumns } from './rl-parquet.js'
import { rlReleaseFormat } from './rl-row.js'
import { type RlExportReport, type RunRlExportOptions, rlExportSteps, runRlExport } from './run-rl-export.js'
import { runRlValidate } from './run-rl-validate.js'

const columnsOf = (context: RlRowContext) => ({ metadataFields: context.task.taskConfig.metadata_fields, candidates: true })

export const rlKind: ReleaseKind<{
  options: RunRlExportOptions
  plan: PreparedRecordExport
  report: RlExportReport
  source: { task: GradingTask; dataset: string }
  context: RlRowContext
  validate: Parameters<typeof runRlValidate>[0]
  validation: Awaited<ReturnType<typeof runRlValidate>>
}> = {
  ...rlExportSteps,
  command: 'rl',
  format: rlReleaseFormat,
  export: runRlExport,
  rowContext: (source) => rlRowContext(source),
  columns: (context) => rlParquetColumns(columnsOf(context)),
  readRows: async (path, context) => (await readRlParquet(path, columnsOf(context))).rows,
  checkRow: checkRlRow,
  validate: runRlValidate,
}
