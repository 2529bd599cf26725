/**
 * @module train: the processes one run is made of, in order. A run of a given model is one step, the
 * trainer. The smoke preset without a model makes the tiny local model first (`train smoke`'s, cached
 * under the outputs root: build and warm-up only when the cache does not hold it) and probes it after:
 * the warm and the trained model on held-out episodes, judged by this server, the verdict written
 * beside the run (`learning.json`, what the runs view shows).
 *
 * ```
 * [build tiny Qwen3] [warm-up]  →  GRPO (train_grpo.py)  →  [learning probe → learning.json]
 * ```
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { learningFromProbe, probeArguments, writeProbeRows } from './smoke/learning-probe.js'
import { planTinyModel } from './smoke/tiny-model-plan.js'
import { warmupDefaults } from './smoke/tiny-model-settings.js'
import { trainerCommand } from './trainer-command.js'
import type { PreparedRun } from './training-run.js'

export interface RunStep {
  name: string
  command: string[]
  cwd: string
  /** Runs here once the step exited 0 (a cache stamp, a verdict); a throw fails the run. */
  after?: () => Promise<void>
}

export const trainerStepName = 'GRPO'

export async function runSteps(options: {
  python: string
  script: string
  run: PreparedRun
  envUrl: string
  outputsRoot: string
}): Promise<RunStep[]> {
  const { run, python } = options
  const trainer: RunStep = {
    name: trainerStepName,
    command: trainerCommand({
      python,
      script: options.script,
      parameters: run.parameters,
      runDir: run.runDir,
      datasetPath: run.datasetPath,
      envUrl: options.envUrl,
    }),
    cwd: run.runDir,
  }
  const tiny = run.parameters.tinyModel
  if (tiny === undefined) return [trainer]
  const plan = await planTinyModel({
    envId: run.parameters.envId,
    outputsRoot: options.outputsRoot,
    trajectoriesPath: join(run.runDir, 'warmup-trajectories.jsonl'),
    warmupSteps: tiny.warmupSteps,
    warmupRows: warmupDefaults.rows,
    temperature: run.parameters.temperature,
    minToolCallRate: tiny.warmupMinToolCallRate,
  })
  const prepare = plan.steps.map(
    (step, index): RunStep => ({
      name: step.name,
      command: [python, '-u', ...step.args],
      cwd: plan.cwd,
      ...(index === plan.steps.length - 1 ? { after: plan.stamp } : {}),
    }),
  )
  if (!tiny.probe) return [...prepare, trainer]
  const rowsPath = join(run.runDir, 'probe-rows.jsonl')
  await writeProbeRows(run.parameters.envId, rowsPath)
  const report = join(run.runDir, 'probe.json')
  const probe: RunStep = {
    name: 'learning probe',
    command: [
      python,
      '-u',
      ...probeArguments({
        rowsPath,
        envUrl: options.envUrl,
        envId: run.parameters.envId,
        temperature: run.parameters.temperature,
        before: plan.warm,
        after: join(run.runDir, 'final'),
        out: report,
      }),
    ],
    cwd: plan.cwd,
    after: async () => {
      const { learning, check } = await learningFromProbe(report)
      await writeFile(join(run.runDir, 'learning.json'), `${JSON.stringify({ ...learning, check }, null, 2)}\n`)
    },
  }
  return [...prepare, trainer, probe]
}
