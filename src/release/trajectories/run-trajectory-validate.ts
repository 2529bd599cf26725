/**
 * @module release/trajectories: `releaseops release trajectories validate <dir>`: loads the task (and,
 * with `--canonical`, the records the release came from), validates the release and optionally writes
 * the report. The caller exits non-zero when it is invalid.
 */
import { loadCanonicalRecords } from '../canonical/parse-canonical-records.js'
import { writeJsonReport } from '../io/atomic-file.js'
import { loadTaskFor, type TaskOptions } from '../planning/task-options.js'
import { type TrajectoryValidationReport, validateTrajectoryRelease } from './validate-trajectory-release.js'

export interface RunTrajectoryValidateOptions extends TaskOptions {
  datasetDir: string
  canonical?: string
  report?: string
  overwrite?: boolean
}

export function runTrajectoryValidate(options: RunTrajectoryValidateOptions): TrajectoryValidationReport {
  const loaded = loadTaskFor(options)
  const report = validateTrajectoryRelease({
    dir: options.datasetDir,
    task: loaded.task,
    dataset: options.dataset,
    ...(options.canonical ? { canonical: loadCanonicalRecords(options.canonical).records } : {}),
  })
  if (options.report) {
    writeJsonReport({ path: options.report, value: report, ...(options.overwrite ? { overwrite: true } : {}) })
  }
  return report
}
