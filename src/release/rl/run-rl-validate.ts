/**
 * @module release/rl: `releaseops release rl validate`: an RL release checked against the task files it
 * was exported from (every row rebuilt, stage pairs, order, split overlap, artifact hashes), with an
 * optional report file. The caller exits non-zero when it is invalid.
 */
import { writeJsonReport } from '../io/atomic-file.js'
import { loadTaskFor, type TaskOptions } from '../sft/task-options.js'
import { type RlValidationReport, validateRlRelease } from './validate-rl-release.js'

export async function runRlValidate(
  options: TaskOptions & { datasetDir: string; report?: string; overwrite?: boolean },
): Promise<RlValidationReport> {
  const loaded = loadTaskFor(options)
  const report = await validateRlRelease({ directory: options.datasetDir, dataset: options.dataset, task: loaded.task })
  if (options.report) {
    writeJsonReport({ path: options.report, value: report, ...(options.overwrite ? { overwrite: true } : {}) })
  }
  return report
}
