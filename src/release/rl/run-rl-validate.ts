/**
 * @module release/rl: `releaseops release rl validate`: an RL release checked against the task files it
 * was exported from (every row rebuilt, stage pairs, order, split overlap, artifact hashes) and, with
 * `--canonical`, against the canonical records it came from; with an optional report file. The caller
 * exits non-zero when it is invalid.
 */

import { loadCanonicalRecords } from '../canonical/parse-canonical-records.js'
import type { LoadedTask } from '../inputs/load-task-files.js'
import { type ValidationReportTarget, validateRelease } from '../kinds/validate-release.js'
import type { TaskOptions } from '../planning/task-options.js'
import { rlCanonicalErrors } from './check-rl-canonical.js'
import { type RlValidationReport, readRlRelease } from './validate-rl-release.js'

export async function runRlValidate(
  options: TaskOptions & ValidationReportTarget & { datasetDir: string; canonical?: string },
): Promise<RlValidationReport & { canonical_errors?: string[] }> {
  return validateRelease(options, (loaded) => validateRlAgainst(options, loaded))
}

async function validateRlAgainst(
  options: TaskOptions & { datasetDir: string; canonical?: string },
  loaded: LoadedTask,
): Promise<RlValidationReport & { canonical_errors?: string[] }> {
  const read = await readRlRelease({ directory: options.datasetDir, dataset: options.dataset, task: loaded.task })
  let report: RlValidationReport & { canonical_errors?: string[] } = read.report
  if (options.canonical) {
    const canonical = rlCanonicalErrors({
      rows: read.rows,
      records: loadCanonicalRecords(options.canonical).records,
      levelField: loaded.task.grading.gt_field,
    })
    report = { ...report, valid: report.valid && canonical.length === 0, canonical_errors: canonical }
  }
  return report
}
