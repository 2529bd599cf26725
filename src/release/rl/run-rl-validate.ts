/**
 * @module release/rl: `releaseops release rl validate`: an RL release checked against the task files it
 * was exported from (every row rebuilt, stage pairs, order, split overlap, artifact hashes), with an
 * optional report file. The caller exits non-zero when it is invalid.
 */
import { writeFileSync } from 'node:fs'
import { writeFileAtomic } from '../io/atomic-file.js'
import { loadTaskFor, type TaskOptions } from '../sft/task-options.js'
import { type RlValidationReport, validateRlRelease } from './validate-rl-release.js'

export async function runRlValidate(
  options: TaskOptions & { datasetDir: string; report?: string; overwrite?: boolean },
): Promise<RlValidationReport> {
  const loaded = loadTaskFor(options)
  const report = await validateRlRelease({ directory: options.datasetDir, dataset: options.dataset, task: loaded.task })
  if (options.report) {
    writeFileAtomic({
      path: options.report,
      overwrite: options.overwrite ?? false,
      write: (temporary) => writeFileSync(temporary, `${JSON.stringify(report, null, 2)}\n`),
    })
  }
  return report
}
