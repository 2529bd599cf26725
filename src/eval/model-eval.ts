/**
 * @module eval: the LLM eval as a use case, in two steps. `prepareModelEval` loads the dataset, checks the
 * episodes file can be resumed, builds the model (its endpoint checked) and the run's fingerprint;
 * `runModelEval` runs the episodes and builds the summary with its run facts and, if asked, the env's
 * ceiling beside the model. The CLI around it parses flags, shows progress, handles Ctrl-C and prints.
 */
import { dirname, relative } from 'node:path'
import type { ChatModel } from '../agent/chat-model.js'
import { type ChatModelSettings, createChatModel } from '../agent/create-chat-model.js'
import { modelAgent } from '../agent/model-agent.js'
import { InvalidInputError } from '../core/errors/invalid-input-error.js'
import type { EnvRegistry } from '../core/registry/env-registry.js'
import { addRunFacts } from './add-run-facts.js'
import type { EvalSummary } from './build-summary.js'
import { ceilingSummary } from './ceiling-policies.js'
import { buildLlmSummary } from './llm-summary.js'
import { type LoadedDataset, loadDataset } from './load-dataset.js'
import { runFingerprint } from './run-fingerprint.js'
import { type LlmEvalRun, runLlmEval } from './run-llm-eval.js'

export interface ModelEvalRequest {
  envId: string
  envs: EnvRegistry
  /** A split name or a JSONL file. */
  dataset: string
  model: ChatModelSettings
  samples: number
  concurrency: number
  maxTurns?: number
  maxEpisodeSteps?: number
  /** Episodes file (needed to resume); `summaryPath` makes the path in the summary relative to it. */
  episodesPath?: string
  summaryPath?: string
  resume?: boolean
  recordTrajectories: boolean
  /** The outcome rate pass^k counts as success (default: the env's first). */
  success?: string
  /** Show the env's ceiling policy (the oracle) over the same rows. */
  ceiling: boolean
}

export interface PreparedModelEval {
  request: ModelEvalRequest
  dataset: LoadedDataset
  model: ChatModel
  fingerprint: string
}

export type ModelEvalOutcome =
  | { aborted: true; run: LlmEvalRun }
  | { aborted: false; run: LlmEvalRun; summary: EvalSummary; unscored: number; seconds: number }

export async function prepareModelEval(request: ModelEvalRequest): Promise<PreparedModelEval> {
  request.envs.get(request.envId)
  const dataset = await loadDataset({ envId: request.envId, source: request.dataset, registry: request.envs })
  if (request.resume && !request.episodesPath)
    throw new InvalidInputError({
      code: 'resume_without_file',
      message: '--resume needs the episodes file: pass --episodes-out (or --out).',
      issues: [],
    })
  const model = await createChatModel(request.model)
  const fingerprint = runFingerprint({
    envId: request.envId,
    datasetSha256: dataset.sha256,
    identity: model.identity,
    samples: request.samples,
    ...(request.maxTurns === undefined ? {} : { maxTurns: request.maxTurns }),
    ...(request.maxEpisodeSteps === undefined ? {} : { maxEpisodeSteps: request.maxEpisodeSteps }),
  })
  return { request, dataset, model, fingerprint }
}

/** Runs the prepared eval; the model is closed whatever happens. */
export async function runModelEval(
  prepared: PreparedModelEval,
  hooks: { signal?: AbortSignal; onEpisode?: (done: number, total: number) => void } = {},
): Promise<ModelEvalOutcome> {
  const { request, dataset, model, fingerprint } = prepared
  const { episodesPath } = request
  const started = performance.now()
  let run: LlmEvalRun
  try {
    run = await runLlmEval({
      envId: request.envId,
      envs: request.envs,
      rows: dataset.rows,
      agent: modelAgent(model),
      samples: request.samples,
      concurrency: request.concurrency,
      fingerprint,
      recordTrajectories: request.recordTrajectories,
      ...(hooks.signal ? { signal: hooks.signal } : {}),
      ...(episodesPath ? { episodesPath } : {}),
      ...(request.resume ? { resume: true } : {}),
      ...(request.maxTurns === undefined ? {} : { maxTurns: request.maxTurns }),
      ...(request.maxEpisodeSteps === undefined ? {} : { maxEpisodeSteps: request.maxEpisodeSteps }),
      onEpisode: (_line, done, total) => hooks.onEpisode?.(done, total),
    })
  } finally {
    await model.close?.()
  }
  const seconds = (performance.now() - started) / 1000
  if (run.aborted) return { aborted: true, run }
  const summary = buildLlmSummary({
    lines: run.lines,
    groupBy: request.envs.get(request.envId).dataset?.groupBy ?? [],
    samples: request.samples,
    ...(request.success ? { successRate: request.success } : {}),
  })
  const unscored = run.lines.filter((line) => line.status !== 'scored').length
  addRunFacts(summary, {
    env_id: request.envId,
    dataset: dataset.name,
    dataset_sha256: dataset.sha256,
    rows: dataset.rows.length,
    samples: request.samples,
    model: model.identity,
    fingerprint,
    episodes: run.lines.length,
    resumed: run.resumed,
    ran: run.ran,
    unscored,
    ...(episodesPath
      ? { episodes_path: request.summaryPath ? relative(dirname(request.summaryPath), episodesPath) : episodesPath }
      : {}),
  })
  // The ceiling (oracle) over the same rows, so the report shows the gap to the best achievable score.
  if (request.ceiling) Object.assign(summary, await ceilingSummary({ envId: request.envId, rows: dataset.rows }))
  return { aborted: false, run, summary, unscored, seconds }
}
