/**
 * @module train: lays out one run under the outputs root before its trainer starts:
 * `runs/<run_id>/` with `dataset.jsonl` (the env's split, written by us) and `status.json` (parameters,
 * command, state; kept by the supervisor). The model is a Hub id, a folder checked to lie inside the
 * root, or, for the smoke preset without one, the tiny local model the run makes first.
 */
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { isAbsolute, join } from 'node:path'
import type { EnvRegistry } from '../core/registry/env-registry.js'
import { policyRegistry } from '../envs/index.js'
import { budgetFormatFor, type CompletionBudget, checkCompletionBudget, runCompletionBudget } from './completion-budget.js'
import { checkHubModelAvailable } from './hub-model-cache.js'
import { makeOutputsDirectory } from './make-outputs-directory.js'
import { resolveOutputsPath } from './outputs-root.js'
import { tinyModelFolders } from './smoke/tiny-model-settings.js'
import { TrainingUnavailableError } from './training-errors.js'
import {
  hubRepoIdSchema,
  type TrainingParameters,
  type TrainingStartRequest,
  trainingParameters,
  trainingPresets,
} from './training-request.js'

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

export interface PrepareRunOptions {
  request: TrainingStartRequest
  registry: EnvRegistry
  defaultEnvId: string
  outputsRoot: string
  now: Date
  /** What the smoke preset trains when the request names no model (default: the tiny local model). */
  smokeModel?: string | undefined
  /** The trainer's environment: offline there, a Hub model not in its cache is refused at once. */
  trainerEnvironment?: NodeJS.ProcessEnv
}

/** A Hub id as given; a folder under the outputs root as its absolute path (anything else refused). */
async function modelFolder(outputsRoot: string, path: string, field: string): Promise<string> {
  const resolved = await resolveOutputsPath(outputsRoot, path)
  if (resolved.type !== 'directory') {
    throw new TrainingUnavailableError({
      code: 'model_path_not_folder',
      message: `${field} must be a model folder under the outputs root.`,
      path: field,
      status: 422,
    })
  }
  return resolved.absolute
}

async function resolveModel(
  request: TrainingStartRequest,
  options: PrepareRunOptions,
): Promise<{ model: string; tiny: boolean }> {
  if (request.model_name !== undefined) return { model: request.model_name, tiny: false }
  if (request.model_path !== undefined)
    return { model: await modelFolder(options.outputsRoot, request.model_path, 'model_path'), tiny: false }
  const preset = trainingPresets[request.preset].model
  if (preset !== null) return { model: preset, tiny: false }
  const configured = options.smokeModel
  if (configured === undefined) return { model: join(options.outputsRoot, tinyModelFolders.warm), tiny: true }
  const hubId = hubRepoIdSchema.safeParse(configured).success && !existsSync(join(options.outputsRoot, configured))
  return { model: hubId ? configured : await modelFolder(options.outputsRoot, configured, 'smoke_model'), tiny: false }
}

export async function prepareTrainingRun(options: PrepareRunOptions): Promise<PreparedRun> {
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
  const { model, tiny } = await resolveModel(request, options)
  if (!tiny && !isAbsolute(model) && options.trainerEnvironment)
    checkHubModelAvailable({ model, environment: options.trainerEnvironment })
  const parameters = trainingParameters({ request, envId, model, tiny })
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
