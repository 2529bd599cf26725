/**
 * @module eval: `/api/eval` as a background job, one at a time: baseline policies, or a model behind an
 * OpenAI-compatible endpoint, over one of the env's dataset splits. Results land under the outputs root
 * (`evals/<job_id>/summary.json` and `episodes.jsonl`, which the dashboard's eval and replay pages read).
 *
 * A request names a split, never a server file. No API key is ever sent to the caller's endpoint: the
 * server's credentials must not travel to a URL a request chose (use the CLI for keyed APIs).
 */
import { randomBytes } from 'node:crypto'
import { EventEmitter } from 'node:events'
import { createWriteStream } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { z } from 'zod'
import { modelModes } from '../agent/chat-model.js'
import { createChatModel } from '../agent/create-chat-model.js'
import { modelAgent } from '../agent/model-agent.js'
import type { EnvRegistry } from '../core/registry/env-registry.js'
import type { PolicyRegistry } from '../core/registry/policy-registry.js'
import { buildSummary, type EvalSummary } from './build-summary.js'
import { episodeLine } from './episode-record.js'
import { EvalJobError } from './eval-job-error.js'
import { buildLlmSummary } from './llm-summary.js'
import { runEval } from './run-eval.js'
import { runFingerprint } from './run-fingerprint.js'
import { runLlmEval } from './run-llm-eval.js'

export const evalJobRequestSchema = z
  .strictObject({
    env_id: z.string().min(1).max(100).optional(),
    split: z.string().min(1).max(64).default('eval').describe('A split the env generates (never a file on the server).'),
    max_rows: z.int().min(1).max(100_000).optional().describe('The first n rows of the split.'),
    policies: z.array(z.string().min(1).max(100)).min(1).max(16).optional().describe('Baseline policies (default: all).'),
    model: z
      .strictObject({
        name: z.string().min(1).max(200),
        base_url: z
          .url({ protocol: /^https?$/ })
          .max(2048)
          .describe('OpenAI-compatible endpoint, e.g. http://127.0.0.1:8001/v1.'),
        mode: z.enum(modelModes).default('native'),
        concurrency: z.int().min(1).max(64).default(4),
        max_tokens: z.int().min(1).max(32_768).optional(),
        temperature: z.number().min(0).max(2).optional(),
        max_turns: z.int().min(1).max(256).optional(),
        samples: z.int().min(1).max(16).default(1),
        enable_thinking: z.boolean().optional(),
      })
      .optional()
      .describe('Evaluate a model instead of policies (no API key is sent).'),
  })
  .refine((value) => value.model === undefined || value.policies === undefined, {
    message: 'Give policies or a model, not both.',
    path: ['model'],
  })

export type EvalJobRequest = z.output<typeof evalJobRequestSchema>
export type EvalJobState = 'idle' | 'running' | 'succeeded' | 'failed' | 'cancelled'

export interface EvalJobStatus {
  state: EvalJobState
  job_id: string | null
  env_id: string | null
  split: string | null
  agents: string[]
  done: number
  total: number
  started_at: string | null
  ended_at: string | null
  /** Relative to the outputs root. */
  summary_path: string | null
  episodes_path: string | null
  error: { code: string; message: string } | null
  summary: EvalSummary | null
}

export interface EvalJobRunnerOptions {
  outputsRoot: string
  envs: EnvRegistry
  policies: PolicyRegistry
  defaultEnvId: string
  /** Largest model-endpoint reply read; a bigger one fails the job (`endpoint_reply_too_large`; default 16 MiB). */
  maxModelReplyBytes?: number
  /** Sends the model requests; the server passes its outbound policy's fetch (decision 0067). */
  fetch?: typeof fetch
  /** Creates a job's folder; the server passes one that turns a refused write into a coded 503. */
  makeDirectory?: (path: string) => Promise<void>
  now?: () => Date
}

export class EvalJobRunner extends EventEmitter {
  private readonly options: EvalJobRunnerOptions
  private current: EvalJobStatus = {
    state: 'idle',
    job_id: null,
    env_id: null,
    split: null,
    agents: [],
    done: 0,
    total: 0,
    started_at: null,
    ended_at: null,
    summary_path: null,
    episodes_path: null,
    error: null,
    summary: null,
  }
  private controller: AbortController | undefined
  private finished: Promise<void> | undefined

  constructor(options: EvalJobRunnerOptions) {
    super()
    this.options = options
  }

  status(): EvalJobStatus {
    return { ...this.current }
  }

  /** Resolves when the current job (if any) has ended. */
  async settled(): Promise<EvalJobStatus> {
    await this.finished
    return this.status()
  }

  private set(patch: Partial<EvalJobStatus>): void {
    this.current = { ...this.current, ...patch }
    this.emit('status', this.status())
  }

  /** Validates and starts a job; throws 409 `eval_running` while one runs. */
  start(request: EvalJobRequest): EvalJobStatus {
    if (this.current.state === 'running') {
      throw new EvalJobError({
        code: 'eval_running',
        message: `Eval job ${this.current.job_id} is still running; wait for it or POST /api/eval/cancel.`,
        details: { job_id: this.current.job_id },
        status: 409,
      })
    }
    const envId = request.env_id ?? this.options.defaultEnvId
    const registration = this.options.envs.get(envId)
    if (!registration.dataset) {
      throw new EvalJobError({ code: 'no_dataset', message: `Env ${envId} generates no dataset.`, status: 422 })
    }
    const allRows = registration.dataset.rows(request.split)
    const rows = request.max_rows === undefined ? allRows : allRows.slice(0, request.max_rows)
    const policies =
      request.model === undefined
        ? (request.policies ??
          this.options.policies.names(envId).filter((name) => !this.options.policies.get(envId, name).privileged))
        : []
    for (const policy of policies) this.options.policies.get(envId, policy)
    const now = this.options.now?.() ?? new Date()
    const jobId = `${now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)}-${randomBytes(3).toString('hex')}`
    const folder = join(this.options.outputsRoot, 'evals', jobId)
    const relativePath = (name: string) => relative(this.options.outputsRoot, join(folder, name)).split(sep).join('/')
    const samples = request.model?.samples ?? 1
    this.controller = new AbortController()
    this.current = {
      state: 'running',
      job_id: jobId,
      env_id: envId,
      split: request.split,
      agents: request.model ? [request.model.name] : policies,
      done: 0,
      total: rows.length * (request.model ? samples : policies.length),
      started_at: now.toISOString(),
      ended_at: null,
      summary_path: relativePath('summary.json'),
      episodes_path: relativePath('episodes.jsonl'),
      error: null,
      summary: null,
    }
    this.emit('status', this.status())
    const job = { request, envId, rows, policies, folder, groupBy: registration.dataset.groupBy, samples }
    this.finished = this.run(job).then(
      (summary) => this.set({ state: 'succeeded', summary, ended_at: new Date().toISOString() }),
      (error: Error) =>
        this.set({
          state: this.controller?.signal.aborted ? 'cancelled' : 'failed',
          ended_at: new Date().toISOString(),
          error: { code: (error as { code?: string }).code ?? 'eval_failed', message: error.message },
        }),
    )
    return this.status()
  }

  cancel(): EvalJobStatus {
    if (this.current.state !== 'running') {
      throw new EvalJobError({ code: 'no_eval_running', message: 'No eval job is running.', status: 409 })
    }
    this.controller?.abort(new Error('cancelled'))
    return this.status()
  }

  private async run(job: {
    request: EvalJobRequest
    envId: string
    rows: ReturnType<NonNullable<ReturnType<EnvRegistry['get']>['dataset']>['rows']>
    policies: string[]
    folder: string
    groupBy: readonly string[]
    samples: number
  }): Promise<EvalSummary> {
    await (this.options.makeDirectory ?? makeFolder)(job.folder)
    const episodesPath = join(job.folder, 'episodes.jsonl')
    let summary: EvalSummary
    const runInfo = { env_id: job.envId, dataset: job.request.split, rows: job.rows.length }
    if (job.request.model === undefined) {
      const records = await runEval({
        envId: job.envId,
        rows: job.rows,
        policies: job.policies,
        workers: 1,
        recordSteps: true,
        chunkSize: 50,
        onProgress: (done) => this.set({ done }),
      })
      if (this.controller?.signal.aborted) throw new Error('cancelled')
      summary = buildSummary(records, job.groupBy)
      await writeLines(episodesPath, records.map(episodeLine))
    } else {
      const spec = job.request.model
      // No API key and no endpoint check: the server's credentials never travel to a URL a request chose.
      const model = await createChatModel({
        baseUrl: spec.base_url,
        model: spec.name,
        mode: spec.mode,
        ...(spec.max_tokens === undefined ? {} : { maxTokens: spec.max_tokens }),
        ...(spec.temperature === undefined ? {} : { temperature: spec.temperature }),
        ...(spec.enable_thinking === undefined ? {} : { enableThinking: spec.enable_thinking }),
        maxConcurrency: spec.concurrency,
        ...(this.options.maxModelReplyBytes === undefined ? {} : { maxReplyBytes: this.options.maxModelReplyBytes }),
        ...(this.options.fetch === undefined ? {} : { fetch: this.options.fetch }),
        checkEndpoint: false,
      })
      {
        const run = await runLlmEval({
          envId: job.envId,
          envs: this.options.envs,
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
          episodesPath,
          signal: (this.controller as AbortController).signal,
          ...(spec.max_turns === undefined ? {} : { maxTurns: spec.max_turns }),
          onEpisode: (_line, done) => this.set({ done }),
        })
        if (run.aborted) throw new Error('cancelled')
        summary = buildLlmSummary({ lines: run.lines, groupBy: job.groupBy, samples: job.samples })
      }
    }
    for (const block of Object.values(summary)) Object.assign(block, { run: runInfo })
    await writeFile(join(job.folder, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`)
    return summary
  }
}

const makeFolder = async (path: string) => {
  await mkdir(path, { recursive: true })
}

async function writeLines(path: string, lines: readonly object[]): Promise<void> {
  const stream = createWriteStream(path)
  for (const line of lines) {
    if (!stream.write(`${JSON.stringify(line)}\n`)) await new Promise<void>((resolve) => stream.once('drain', () => resolve()))
  }
  await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())))
}
