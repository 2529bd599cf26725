/**
 * @module release/trajectories: the native tool-call trajectory release as a release kind: rows of
 * `trajectoryColumns`, planned from canonical records (`loadTrajectoryPlan`), read back by our reader
 * (`readTrajectoryRows`), checked by `checkTrajectoryRow` (every tool call re-executed).
 */
import { readFileSync } from 'node:fs'
import type { GradingTask } from '../../envs/grading/grading-task.js'
import type { ReleaseKind } from '../contracts/release-kind.js'
import { checkTrajectoryRow, type RowCheckContext, trajectoryRowContext } from './check-trajectory-row.js'
import { readTrajectoryRows } from './read-trajectory-rows.js'
import {
  type RunTrajectoryExportOptions,
  runTrajectoryExport,
  type TrajectoryExportPlan,
  trajectoryExportSteps,
} from './run-trajectory-export.js'
import { type RunTrajectoryValidateOptions, runTrajectoryValidate } from './run-trajectory-validate.js'
import { trajectoryColumns } from './trajectory-columns.js'
import type { TrajectoryExportReport } from './trajectory-export-report.js'
import { trajectoryReleaseFormat } from './trajectory-format.js'
import type { TrajectoryValidationReport } from './validate-trajectory-release.js'

type Context = ReturnType<typeof trajectoryRowContext>

function readRows(path: string, context: Context): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = []
  let failure: string | undefined
  readTrajectoryRows({
    bytes: readFileSync(path),
    metadataFields: context.task.taskConfig.metadata_fields,
    tools: context.tools,
    onRow: (row) => rows.push(structuredClone(row)),
    onError: (message) => {
      failure ??= message
    },
  })
  return failure === undefined ? Promise.resolve(rows) : Promise.reject(new Error(failure))
}

export const trajectoryKind: ReleaseKind<{
  options: RunTrajectoryExportOptions
  plan: TrajectoryExportPlan
  report: TrajectoryExportReport
  source: { task: GradingTask; dataset: string; declared?: RowCheckContext['declared'] }
  context: Context
  validate: RunTrajectoryValidateOptions
  validation: TrajectoryValidationReport
}> = {
  ...trajectoryExportSteps,
  command: 'trajectories',
  format: trajectoryReleaseFormat,
  export: runTrajectoryExport,
  rowContext: trajectoryRowContext,
  columns: (context) => trajectoryColumns({ tools: context.tools, metadataFields: context.task.taskConfig.metadata_fields }),
  readRows,
  checkRow: checkTrajectoryRow,
  validate: runTrajectoryValidate,
}
