/**
 * @module release/kinds: the validator shell of the record-based kinds (legacy SFT, RL, trajectories):
 * the task files loaded and checked, the kind's validation run on them, and its report written when asked
 * (`--report`, refusing to replace one unless `--overwrite`). The caller exits non-zero when it is invalid.
 */

import { writeJsonReport } from '../../io/atomic-file.js'
import type { ReleaseValidation } from '../contracts/release-validation.js'
import type { LoadedTask } from '../inputs/load-task-files.js'
import { loadTaskFor, type TaskOptions } from '../planning/task-options.js'

export interface ValidationReportTarget {
  report?: string
  overwrite?: boolean
}

export function validateRelease<Validation extends ReleaseValidation | Promise<ReleaseValidation>>(
  options: TaskOptions & ValidationReportTarget,
  validate: (loaded: LoadedTask) => Validation,
): Validation {
  const write = <Report>(report: Report): Report => {
    if (options.report)
      writeJsonReport({ path: options.report, value: report, ...(options.overwrite ? { overwrite: true } : {}) })
    return report
  }
  const validation = validate(loadTaskFor(options))
  return (validation instanceof Promise ? validation.then(write) : write(validation)) as Validation
}
