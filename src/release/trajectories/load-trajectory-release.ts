/**
 * @module release/trajectories: the library entry points for other stages (mixtures, VeRL configs):
 * `loadTrajectoryRelease` validates a release in full (hashes, every row, every tool call re-executed)
 * and returns its rows by split, or throws `invalid_trajectory_release` with the validation report; a
 * caller never gets rows from a release that does not check out.
 */
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import type { GradingTask } from '../../envs/grading/grading-task.js'
import type { CanonicalRecord, SplitName } from '../contracts/canonical-record.js'
import { type ExportReportCore, exportReportSchema } from './export-report.js'
import { readExportReport } from './report-consistency.js'
import type { TrajectoryRow } from './trajectory-row.js'
import { type TrajectoryValidationReport, validateTrajectoryRelease } from './validate-trajectory-release.js'

export interface LoadedTrajectoryRelease {
  exportReport: ExportReportCore
  validation: TrajectoryValidationReport
  splits: Record<SplitName, TrajectoryRow[]>
}

/** Every problem of a validation report, as strings (splits first). */
export function validationProblems(report: TrajectoryValidationReport): string[] {
  // Report errors (file hashes) first: a changed file is the cause of whatever its rows then show.
  return [
    ...report.report_errors,
    ...Object.entries(report.splits).flatMap(([split, details]) => details.errors.map((error) => `${split}: ${error}`)),
    ...report.cross_split_errors,
  ]
}

export function loadTrajectoryRelease(options: {
  dir: string
  task: GradingTask
  dataset?: string
  canonical?: readonly CanonicalRecord[]
}): LoadedTrajectoryRelease {
  const splits: Record<SplitName, TrajectoryRow[]> = { train: [], val: [], test: [] }
  const validation = validateTrajectoryRelease({ ...options, onValidRow: (split, row) => splits[split].push(row) })
  const exportReport = readExportReport(options.dir, [])
  if (!validation.valid || !exportReport) {
    const problems = validationProblems(validation)
    throw new InvalidInputError({
      code: 'invalid_trajectory_release',
      path: options.dir,
      message: `${options.dir} is not a valid trajectory release: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? ` (and ${problems.length - 3} more)` : ''}.`,
      issues: problems
        .slice(0, 500)
        .map((problem) => ({ code: 'invalid_trajectory_release', path: options.dir, message: problem })),
    })
  }
  return { exportReport: exportReportSchema.parse(exportReport), validation, splits }
}
