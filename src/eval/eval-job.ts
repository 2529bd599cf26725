/**
 * @module eval: `/api/eval` as a background job, one at a time: baseline policies, or a model behind an
 * OpenAI-compatible endpoint, over one of the env's dataset splits. Results land under the outputs root
 * (`evals/<job_id>/summary.json` and `episodes.jsonl`, which the dashboard's eval and replay pages read).
 * The job's status is on disk from its start (`job.json`, eval-job-marker.ts), so a restart shows the
 * last job as it ended, or `interrupted` when the server stopped under it; a job's end is judged by how
 * many of its episodes were scored (eval-job-verdict.ts).
 *
 * A request names a split, never a server file. No API key is ever sent to the caller's endpoint: the
 * server's credentials must not travel to a URL a request chose (use the CLI for keyed APIs).
 */
import { randomBytes } from 'node:crypto'
import { EventEmitter } from 'node:events'
import { readFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import type { EnvRegistry } from '../core/registry/env-registry.js'
import type { PolicyRegistry } from '../core/registry/policy-registry.js'
import type { EvalSummary } from './build-summary.js'
import { EvalJobError, evalCancelled } from './eval-job-error.js'
import { type EvalJobMarker, type EvalJobRecord, recoverEvalJobs, writeEvalJobMarker } from './eval-job-marker.js'
import type { EvalJobRequest } from './eval-job-request.js'
import { defaultMaxFailureShare, judgeEvalJob } from './eval-job-verdict.js'
import { type EvalJobWork, type EvalJobWorkResult, runEvalJobWork } from './eval-job-work.js'
import { stratifiedRows } from './stratified-rows.js'

export type { EvalJobState } from './eval-job-marker.js'

export { type EvalJobRequest, evalJobRequestSchema } from './eval-job-request.js'

export interface EvalJobStatus extends EvalJobRecord {
  summary: EvalSummary | null
}

const idle: EvalJobStatus = {
  state: 'idle',
  job_id: null,
  env_id: null,
  split: null,
  agents: [],
  done: 0,
  total: 0,
  rows: null,
  started_at: null,
  ended_at: null,
  summary_path: null,
  episodes_path: null,
  error: null,
  scored: null,
  unscored: null,
  failure_share: null,
  max_failure_share: null,
  summary: null,
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
  private current: EvalJobStatus
  private controller: AbortController | undefined
  private finished: Promise<void> | undefined
  /** The running job's folder is made and its `running` marker written. */
  private opened: Promise<void> = Promise.resolve()
  private job: { folder: string; request: EvalJobRequest } | undefined
  /** Set by a shutdown: the job's end is `interrupted`, whatever it returns after. */
  private interrupted = false
  /** Marker writes, one after another in call order. */
  private writes: Promise<void> = Promise.resolve()

  constructor(options: EvalJobRunnerOptions) {
    super()
    this.options = options
    this.current = this.recover()
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

  /** The last job on disk, as it ended (a `running` one whose server is gone becomes `interrupted`). */
  private recover(): EvalJobStatus {
    const marker = recoverEvalJobs({
      outputsRoot: this.options.outputsRoot,
      pid: process.pid,
      now: () => this.now(),
    })
    if (!marker) return { ...idle }
    const { marker_version: _version, pid: _pid, request: _request, ...record } = marker
    return { ...record, summary: readSummary(this.options.outputsRoot, record) }
  }

  private now(): Date {
    return this.options.now?.() ?? new Date()
  }

  /** Queues a write of the current status as the job's marker. */
  private persist(): Promise<void> {
    const job = this.job
    if (!job) return Promise.resolve()
    const { summary: _summary, ...record } = this.current
    const marker: EvalJobMarker = { ...record, marker_version: 1, pid: process.pid, request: job.request }
    this.writes = this.writes.catch(() => undefined).then(() => writeEvalJobMarker(job.folder, marker))
    return this.writes
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
    const groupBy = registration.dataset.groupBy
    const allRows = registration.dataset.rows(request.split)
    const rows = request.max_rows === undefined ? allRows : stratifiedRows(allRows, request.max_rows, groupBy)
    const stratified = rows.length < allRows.length
    const policies =
      request.model === undefined
        ? (request.policies ??
          this.options.policies.names(envId).filter((name) => !this.options.policies.get(envId, name).privileged))
        : []
    for (const policy of policies) this.options.policies.get(envId, policy)
    const now = this.now()
    const jobId = `${now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)}-${randomBytes(3).toString('hex')}`
    const folder = join(this.options.outputsRoot, 'evals', jobId)
    const relativePath = (name: string) => relative(this.options.outputsRoot, join(folder, name)).split(sep).join('/')
    const samples = request.model?.samples ?? 1
    this.controller = new AbortController()
    this.interrupted = false
    this.job = { folder, request }
    this.current = {
      ...idle,
      state: 'running',
      job_id: jobId,
      env_id: envId,
      split: request.split,
      agents: request.model ? [request.model.name] : policies,
      total: rows.length * (request.model ? samples : policies.length),
      rows: {
        selected: rows.length,
        of: allRows.length,
        selection: stratified ? 'stratified' : 'all',
        by: stratified ? [...groupBy] : [],
      },
      started_at: now.toISOString(),
      summary_path: relativePath('summary.json'),
      episodes_path: relativePath('episodes.jsonl'),
      max_failure_share: request.max_failure_share,
    }
    this.emit('status', this.status())
    // The marker is on disk before any episode runs: a server killed from here on leaves a trace.
    this.opened = (this.options.makeDirectory ?? makeFolder)(folder).then(() => this.persist())
    const job: EvalJobWork = {
      request,
      envId,
      rows,
      policies,
      folder,
      groupBy,
      samples,
      envs: this.options.envs,
      signal: this.controller.signal,
      onDone: (done) => this.set({ done }),
      ...(this.options.maxModelReplyBytes === undefined ? {} : { maxModelReplyBytes: this.options.maxModelReplyBytes }),
      ...(this.options.fetch === undefined ? {} : { fetch: this.options.fetch }),
    }
    this.finished = this.opened
      .then(() => runEvalJobWork(job))
      .then(
        (result) => this.end(result),
        (error: Error) => this.end(error),
      )
    return this.status()
  }

  /** Records how the job ended: its verdict, or why it stopped. A shutdown's `interrupted` stands. */
  private async end(result: EvalJobWorkResult | Error): Promise<void> {
    if (this.interrupted) return
    const ended_at = this.now().toISOString()
    if (result instanceof Error) {
      this.set({
        state: this.controller?.signal.aborted ? 'cancelled' : 'failed',
        ended_at,
        summary_path: null,
        error: { code: (result as { code?: string }).code ?? 'eval_failed', message: result.message },
      })
    } else {
      const verdict = judgeEvalJob(result.counts, this.current.max_failure_share ?? defaultMaxFailureShare)
      this.set({
        state: verdict.state,
        ended_at,
        error: verdict.error,
        scored: result.counts.scored,
        unscored: result.counts.unscored,
        failure_share: Math.round(verdict.failure_share * 10_000) / 10_000,
        summary: result.summaryWritten ? result.summary : null,
        summary_path: result.summaryWritten ? this.current.summary_path : null,
      })
    }
    // A marker that cannot be written leaves the job `running` on disk: a restart reads it as interrupted.
    await this.persist().catch(() => undefined)
  }

  cancel(): EvalJobStatus {
    if (this.current.state !== 'running') {
      throw new EvalJobError({ code: 'no_eval_running', message: 'No eval job is running.', status: 409 })
    }
    this.controller?.abort(evalCancelled())
    return this.status()
  }

  /**
   * For the server's close sequence: a running job is stopped and recorded `interrupted` on disk (with its
   * progress), so that the next start shows what happened instead of `idle`. Waits up to `graceMs` for
   * the job's in-flight episodes to land in its episodes file. With no job running, it only waits for a
   * job that just ended to finish writing its marker.
   */
  async markInterruptedOnShutdown(graceMs = 2000): Promise<void> {
    // A job that just ended may still be writing its final marker: let that write land before exit.
    if (this.current.state !== 'running') return this.finished?.catch(() => undefined)
    this.interrupted = true
    this.controller?.abort(new Error('server shutdown'))
    let timer: NodeJS.Timeout | undefined
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs)
      timer.unref()
    })
    await Promise.race([this.finished, grace])
    clearTimeout(timer)
    this.set({
      state: 'interrupted',
      ended_at: this.now().toISOString(),
      summary_path: null,
      error: {
        code: 'eval_interrupted',
        message: 'The server shut down while this job ran; its episodes so far are in its folder.',
      },
    })
    await this.opened.catch(() => undefined)
    await this.persist().catch(() => undefined)
  }
}

const makeFolder = async (path: string) => {
  await mkdir(path, { recursive: true })
}

/** A recovered job's summary, when it ended with one and the file is still there. */
function readSummary(outputsRoot: string, record: EvalJobRecord): EvalSummary | null {
  if ((record.state !== 'succeeded' && record.state !== 'degraded') || !record.summary_path) return null
  try {
    return JSON.parse(readFileSync(join(outputsRoot, record.summary_path), 'utf8')) as EvalSummary
  } catch {
    return null
  }
}
