/**
 * @module release/trajectories: `releaseops release trajectories validate <dir>`: loads the task (and,
 * with `--canonical`, the records the release came from), validates the release and optionally writes
 * the report. The caller exits non-zero when it is invalid.
 */

import { loadCanonicalRecords } from '../canonical/parse-canonical-records.js'
import { type ValidationReportTarget, validateRelease } from '../kinds/validate-release.js'
import type { TaskOptions } from '../planning/task-options.js'
import { type TrajectoryValidationReport, validateTrajectoryRelease } from './validate-trajectory-release.js'

export interface RunTrajectoryValidateOptions extends TaskOptions, ValidationReportTarget {
  datasetDir: string
  canonical?: string
}

export function runTrajectoryValidate(options: RunTrajectoryValidateOptions): TrajectoryValidationReport {
  return validateRelease(options, (loaded) =>
    validateTrajectoryRelease({
      dir: options.datasetDir,
      task: loaded.task,
      dataset: options.dataset,
      ...(options.canonical ? { canonical: loadCanonicalRecords(options.canonical).records } : {}),
    }),
  )
}
