/**
 * @module train: lays out one run under the outputs root before its trainer starts:
 * `runs/<run_id>/` with `dataset.jsonl` (the env's split, written by us), `run.json` (parameters and
 * command) and the log header. The model is a Hub id or a folder checked to lie inside the root.
 */
import { randomBytes } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { EnvRegistry } from '../core/registry/env-registry.js'
import { policyRegistry } from '../envs/index.js'
import { budgetFormatFor, type CompletionBudget, checkCompletionBudget, runCompletionBudget } from './completion-budget.js'
import { makeOutputsDirectory } from './make-outputs-directory.js'
import { resolveOutputsPath } from './outputs-root.js'
import { TrainingUnavailableError } from './training-errors.js'
import { type TrainingParameters, type TrainingStartRequest, trainingParameters } from './training-request.js'

export interface PreparedRun {
  runId: string
  runDir: string
  datasetPath: string
  logPath: string
  metricsPath: string
  statusPath: string
  parameters: TrainingParameters
  rows: number
  /** The measured completion budget the run was checked against (undefined: the env has no policy ladder). */
  budget: CompletionBudget | undefined
}

function runIdFor(preset: string, now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)
  return `${stamp}-${preset}-${randomBytes(3).toString('hex')}`
}

export async function prepareTrainingRun(options: {
  request: TrainingStartRequest
  registry: EnvRegistry
  defaultEnvId: string
  outputsRoot: string
  now: Date
}): Promise<PreparedRun> {
  const { request } = options
  const envId = request.env_id ?? options.defaultEnvId
  const registration = options.registry.get(envId)
  if (!registration.dataset) {
    throw new TrainingUnavailableError({
      code: 'no_dataset',
      message: `Env ${envId} generates no dataset to train on.`,
      status: 422,
    })
  }
  let model: string | undefined = request.model_name
  if (request.model_path !== undefined) {
    const resolved = await resolveOutputsPath(options.outputsRoot, request.model_path)
    if (resolved.type !== 'directory') {
      throw new TrainingUnavailableError({
        code: 'model_path_not_folder',
        message: 'model_path must be a model folder under the outputs root.',
        path: 'model_path',
        status: 422,
      })
    }
    model = resolved.absolute
  }
  const parameters = trainingParameters({ request, envId, model })
  const budget = await runCompletionBudget({
    envId,
    envs: options.registry,
    policies: policyRegistry,
    split: parameters.split,
    format: budgetFormatFor(parameters.model),
    toolRounds: parameters.maxToolCallingIterations ?? null,
  })
  // The preset's budget is the measured one; a budget the request names must hold it.
  if (budget && request.max_completion_length === undefined) parameters.maxCompletionLength = budget.recommended
  else if (budget) checkCompletionBudget(parameters.maxCompletionLength, budget)
  const dataset = registration.dataset
  const rows = dataset.rows(parameters.split)
  const runId = runIdFor(parameters.preset, options.now)
  const runDir = join(options.outputsRoot, 'runs', runId)
  await makeOutputsDirectory(runDir)
  const datasetPath = join(runDir, 'dataset.jsonl')
  await writeFile(datasetPath, rows.map((row) => `${dataset.serializeRow(row)}\n`).join(''))
  return {
    runId,
    runDir,
    datasetPath,
    logPath: join(runDir, 'train.log'),
    metricsPath: join(runDir, 'metrics.json'),
    statusPath: join(runDir, 'status.json'),
    parameters,
    rows: rows.length,
    budget,
  }
}
