/**
 * @module eval: what an eval job runs: baseline policies in this thread, or a model behind an
 * OpenAI-compatible endpoint; it writes the episodes and (unless no episode was scored) the summary, and
 * counts scored and unscored episodes for the job's verdict.
 */
import { createWriteStream } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createChatModel } from '../agent/create-chat-model.js'
import { modelAgent } from '../agent/model-agent.js'
import type { DatasetRow } from '../core/env/env-dataset.js'
import type { EnvRegistry } from '../core/registry/env-registry.js'
import { buildSummary, type EvalSummary } from './build-summary.js'
import { episodeLine } from './episode-record.js'
import { evalCancelled } from './eval-job-error.js'
import type { EvalJobRequest } from './eval-job-request.js'
import type { EvalJobCounts } from './eval-job-verdict.js'
import { buildLlmSummary } from './llm-summary.js'
import { runEval } from './run-eval.js'
import { runFingerprint } from './run-fingerprint.js'
import { runLlmEval } from './run-llm-eval.js'

export interface EvalJobWork {
  request: EvalJobRequest
  envId: string
  envs: EnvRegistry
  rows: readonly DatasetRow[]
  policies: readonly string[]
  folder: string
  groupBy: readonly string[]
  samples: number
  signal: AbortSignal
  maxModelReplyBytes?: number
  /** Sends the model requests; the server passes its outbound policy's fetch (decision 0067). */
  fetch?: typeof fetch
  onDone: (done: number) => void
}

export interface EvalJobWorkResult {
  summary: EvalSummary
  counts: EvalJobCounts
  /** False when no episode was scored: a summary of nothing is not written (it would read as a score of 0). */
  summaryWritten: boolean
}

export async function runEvalJobWork(job: EvalJobWork): Promise<EvalJobWorkResult> {
  const { summary, counts } = job.request.model === undefined ? await runPolicies(job) : await runModel(job)
  const runInfo = { env_id: job.envId, dataset: job.request.split, rows: job.rows.length }
  for (const block of Object.values(summary)) Object.assign(block, { run: runInfo })
  const summaryWritten = counts.scored > 0
  if (summaryWritten) await writeFile(join(job.folder, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`)
  return { summary, counts, summaryWritten }
}

async function runPolicies(job: EvalJobWork): Promise<{ summary: EvalSummary; counts: EvalJobCounts }> {
  const records = await runEval({
    envId: job.envId,
    rows: job.rows,
    policies: job.policies,
    workers: 1,
    recordSteps: true,
    chunkSize: 50,
    onProgress: (done) => job.onDone(done),
  })
  if (job.signal.aborted) throw evalCancelled()
  await writeLines(join(job.folder, 'episodes.jsonl'), records.map(episodeLine))
  return { summary: buildSummary(records, job.groupBy), counts: { scored: records.length, unscored: 0 } }
}

async function runModel(job: EvalJobWork): Promise<{ summary: EvalSummary; counts: EvalJobCounts }> {
  const spec = job.request.model as NonNullable<EvalJobRequest['model']>
  // No API key and no endpoint check: the server's credentials never travel to a URL a request chose.
  const model = await createChatModel({
    baseUrl: spec.base_url,
    model: spec.name,
    mode: spec.mode,
    ...(spec.max_tokens === undefined ? {} : { maxTokens: spec.max_tokens }),
    ...(spec.temperature === undefined ? {} : { temperature: spec.temperature }),
    ...(spec.enable_thinking === undefined ? {} : { enableThinking: spec.enable_thinking }),
    maxConcurrency: spec.concurrency,
    ...(job.maxModelReplyBytes === undefined ? {} : { maxReplyBytes: job.maxModelReplyBytes }),
    ...(job.fetch === undefined ? {} : { fetch: job.fetch }),
    checkEndpoint: false,
  })
  const run = await runLlmEval({
    envId: job.envId,
    envs: job.envs,
    rows: job.rows,
    agent: modelAgent(model),
    samples: job.samples,
    concurrency: spec.concurrency,
    fingerprint: runFingerprint({
      envId: job.envId,
      datasetSha256: job.request.split,
      identity: model.identity,
      samples: job.samples,
    }),
    episodesPath: join(job.folder, 'episodes.jsonl'),
    signal: job.signal,
    ...(spec.max_turns === undefined ? {} : { maxTurns: spec.max_turns }),
    onEpisode: (_line, done) => job.onDone(done),
  })
  if (run.aborted) throw evalCancelled()
  const unscored = run.lines.filter((line) => line.status !== 'scored')
  const causes: Record<string, number> = {}
  for (const line of unscored) causes[line.status] = (causes[line.status] ?? 0) + 1
  const fault = unscored.find((line) => line.fault)?.fault
  return {
    summary: buildLlmSummary({ lines: run.lines, groupBy: job.groupBy, samples: job.samples }),
    counts: {
      scored: run.lines.length - unscored.length,
      unscored: unscored.length,
      causes,
      ...(fault ? { firstFault: { code: fault.code, message: fault.message } } : {}),
    },
  }
}

async function writeLines(path: string, lines: readonly object[]): Promise<void> {
  const stream = createWriteStream(path)
  for (const line of lines) {
    if (!stream.write(`${JSON.stringify(line)}\n`)) await new Promise<void>((resolve) => stream.once('drain', () => resolve()))
  }
  await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())))
}
