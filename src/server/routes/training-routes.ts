/**
 * @module server/routes: `/train/*`: start (a preset plus validated overrides) and stop a GRPO run —
 * operational, POST, token always — and read-only views of it: status, log tail, metrics (log history),
 * summary, a live Server-Sent Events feed, a PNG plot rendered here, and every run side by side.
 */
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { OutboundPolicy } from '../../io/outbound/outbound-policy.js'
import { readMetricsFile, summarizeLogHistory } from '../../train/log-history.js'
import { readLogTail } from '../../train/log-tail.js'
import { renderTrainingPlot } from '../../train/render-training-plot.js'
import { type FeedEvent, watchTraining } from '../../train/training-feed.js'
import { trainingStartSchema } from '../../train/training-request.js'
import { listRuns } from '../../train/training-runs.js'
import type { TrainingSupervisor } from '../../train/training-supervisor.js'
import { HttpError } from '../http/http-errors.js'
import { operationalRoute, refuseInCluster, startTraining, withHttpErrors } from './operations-support.js'

export interface TrainingRoutesOptions {
  supervisor: TrainingSupervisor
  outputsRoot: string
  clustered: boolean
  /** Poll interval of `/train/live` (tests shorten it). */
  liveIntervalMs?: number
  maxLiveConnections?: number
  /** Checks the vLLM server URL a start names. */
  outbound: OutboundPolicy
}

const tags = ['training']
/** Operator reads: they show runs, logs and metrics, so they need the operator token (decision 0047). */
const operator = { access: 'operator' as const }
const liveHeaders = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
}
const linesQuery = z.object({ lines: z.coerce.number().int().default(200).describe('Lines from the end (20–5000).') })

export function registerTrainingRoutes(app: FastifyInstance, options: TrainingRoutesOptions): void {
  const { supervisor, outputsRoot } = options
  const typed = app.withTypeProvider<ZodTypeProvider>()
  let liveConnections = 0
  let plotCache: { key: string; png: Buffer } | undefined
  supervisor.setMaxListeners(0)

  typed.post(
    '/train/start',
    operationalRoute({
      summary: 'Start a GRPO run (preset smoke or pilot, plus overrides). One run at a time: a second start is a 409.',
      tags,
      body: trainingStartSchema.optional(),
    }),
    async (request, reply) => {
      const status = await startTraining({
        outbound: options.outbound,
        supervisor,
        clustered: options.clustered,
        request: request.body ?? trainingStartSchema.parse({}),
      })
      return reply
        .code(202)
        .send({ started: true, message: 'Training started. Follow /train/status, /train/live or /train/logs.', ...status })
    },
  )

  typed.post(
    '/train/stop',
    operationalRoute({
      summary: 'Stop the running trainer and its whole process group; answers once it has exited.',
      tags,
    }),
    async () => {
      refuseInCluster(options.clustered)
      return withHttpErrors(() => supervisor.stop())
    },
  )

  typed.get(
    '/train/status',
    { config: operator, schema: { summary: 'State of the current (or last) run: exit code, elapsed, paths.', tags } },
    () => supervisor.status(),
  )

  typed.get(
    '/train/runs',
    {
      config: operator,
      schema: {
        summary: 'Runs under outputs/runs, newest first: state, reward curve and summary, learning verdict when probed.',
        tags,
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) }),
      },
    },
    async (request) => {
      const runs = await listRuns(outputsRoot, request.query.limit)
      // The live run's status file may lag its supervisor by a write: the supervisor's word wins.
      const live = supervisor.status()
      return {
        runs: runs.map((run) =>
          run.run_id === live.run_id
            ? { ...run, state: live.state, elapsed_seconds: live.elapsed_seconds, error: live.error }
            : run,
        ),
      }
    },
  )

  typed.get(
    '/train/logs',
    { config: operator, schema: { summary: 'The last lines of the run’s log (plain text).', tags, querystring: linesQuery } },
    async (request, reply) => {
      const run = supervisor.latestRun()
      reply.type('text/plain; charset=utf-8')
      if (!run) return 'No training log yet. Start a run with POST /train/start.\n'
      const lines = Math.min(5000, Math.max(20, request.query.lines))
      const tail = await readLogTail(run.logPath, { lines })
      return tail.lines.length > 0 ? `${tail.lines.join('\n')}\n` : ''
    },
  )

  typed.get(
    '/train/metrics',
    {
      config: operator,
      schema: {
        summary: 'The run’s log history (live: rewritten on every log/save). `?format=original`: the original’s {smoke, pilot}.',
        tags,
        querystring: z.object({ format: z.enum(['releaseops', 'original']).default('releaseops') }),
      },
    },
    async (request) => {
      const run = supervisor.latestRun()
      const snapshot = run ? await readMetricsFile(run.metricsPath) : null
      const rows = snapshot?.rows ?? []
      if (request.query.format === 'original') {
        // The original kept one log history per mode; the latest run fills its own preset's slot.
        const preset = run?.parameters.preset
        return { smoke: preset === 'smoke' && snapshot ? rows : null, pilot: preset === 'pilot' && snapshot ? rows : null }
      }
      return {
        run_id: run?.runId ?? null,
        status: metricsStatus(snapshot?.status ?? null, supervisor.status()),
        global_step: snapshot?.globalStep ?? null,
        max_steps: snapshot?.maxSteps ?? null,
        best: snapshot?.best ?? null,
        log_history: rows,
      }
    },
  )

  typed.get(
    '/train/summary',
    {
      config: operator,
      schema: { summary: 'Reward first/last/delta/max, tool-call and failure frequencies, last loss, best checkpoint.', tags },
    },
    async () => {
      const run = supervisor.latestRun()
      const snapshot = run ? await readMetricsFile(run.metricsPath) : null
      return { status: supervisor.status(), summary: snapshot ? summarizeLogHistory(snapshot) : null }
    },
  )

  typed.get(
    '/train/plot.png',
    {
      config: operator,
      schema: { summary: 'Reward, loss and tool-call/failure frequency of the run, as a PNG rendered on the server.', tags },
    },
    async (_request, reply) => {
      const run = supervisor.latestRun()
      const status = supervisor.status()
      const snapshot = run ? await readMetricsFile(run.metricsPath) : null
      const rows = snapshot?.rows ?? []
      const key = `${run?.runId}:${status.state}:${rows.length}:${JSON.stringify(rows.at(-1) ?? null)}`
      if (plotCache?.key !== key) {
        const progress =
          snapshot?.globalStep === null || snapshot === null ? '' : ` | step ${snapshot.globalStep}/${snapshot.maxSteps ?? '?'}`
        const title = run
          ? `ReleaseOps GRPO | ${run.parameters.preset} ${run.runId} | ${status.state}${progress} | elapsed ${status.elapsed_seconds ?? 0}s | points ${rows.length}`
          : 'ReleaseOps GRPO | no run yet'
        plotCache = { key, png: renderTrainingPlot({ rows, title }) }
      }
      reply.type('image/png').header('cache-control', 'no-store')
      return plotCache.png
    },
  )

  app.get(
    '/train/live',
    {
      config: operator,
      schema: { summary: 'Server-Sent Events: `status`, `metrics` (new log-history rows) and `log` (new lines).', tags },
    },
    (request, reply) => {
      // HEAD: the stream's headers and nothing else, so the response ends (no feed, no slot taken).
      if (request.method === 'HEAD') return reply.code(200).headers(liveHeaders).send()
      if (liveConnections >= (options.maxLiveConnections ?? 32)) {
        throw new HttpError({
          status: 503,
          code: 'too_many_streams',
          message: 'Too many live streams open; close one and retry.',
        })
      }
      liveConnections++
      reply.hijack()
      const raw = reply.raw
      raw.writeHead(200, { ...liveHeaders, connection: 'keep-alive' })
      raw.write(': releaseops training feed\n\n')
      const send = (event: FeedEvent) => {
        if (!raw.writableEnded) raw.write(`event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`)
      }
      const feed = watchTraining({ supervisor, send, ...(options.liveIntervalMs ? { intervalMs: options.liveIntervalMs } : {}) })
      const heartbeat = setInterval(() => {
        if (!raw.writableEnded) raw.write(': ping\n\n')
      }, 15_000)
      heartbeat.unref()
      const close = () => {
        feed.stop()
        clearInterval(heartbeat)
        liveConnections--
      }
      raw.once('close', close)
    },
  )
}

/**
 * The metrics file's status is the trainer's word, last written while it ran: a killed trainer never
 * writes "stopped". Once the supervisor knows the run is over, its state wins over a stale "running".
 */
export function metricsStatus(fileStatus: string | null, status: { state: string; running: boolean }): string | null {
  if (fileStatus === null) return status.running || status.state === 'idle' ? null : status.state
  if (!status.running && fileStatus === 'running') return status.state
  return fileStatus
}
