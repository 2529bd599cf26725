/**
 * @module train: the live view of a run for one subscriber (`/train/live`): the status whenever it
 * changes, new log-history rows as the trainer rewrites its metrics file, and new log lines. The files
 * are polled (cheap `stat` calls; a read only when they changed), which works on every file system and
 * across the trainer's atomic renames, where `fs.watch` would lose track.
 */
import { stat } from 'node:fs/promises'
import { readMetricsFile } from './log-history.js'
import { readLogSince } from './log-tail.js'
import type { TrainingStatus, TrainingSupervisor } from './training-supervisor.js'

export type FeedEvent =
  | { event: 'status'; data: TrainingStatus }
  | {
      event: 'metrics'
      data: {
        run_id: string
        from: number
        rows: Record<string, unknown>[]
        global_step: number | null
        max_steps: number | null
        best: Record<string, unknown> | null
      }
    }
  | { event: 'log'; data: { run_id: string; lines: string[] } }

export interface TrainingFeed {
  stop(): void
}

export function watchTraining(options: {
  supervisor: TrainingSupervisor
  send: (event: FeedEvent) => void
  intervalMs?: number
  /** Log lines sent with the first snapshot. */
  backlogLines?: number
}): TrainingFeed {
  const { supervisor, send } = options
  let runId: string | undefined
  let rowsSent = 0
  let metricsStamp = ''
  let logOffset = 0
  let stopped = false
  let busy = false
  const onStatus = (status: TrainingStatus) => send({ event: 'status', data: status })
  supervisor.on('status', onStatus)
  send({ event: 'status', data: supervisor.status() })

  const tick = async () => {
    const run = supervisor.latestRun()
    if (!run || busy || stopped) return
    busy = true
    try {
      if (run.runId !== runId) {
        runId = run.runId
        rowsSent = 0
        metricsStamp = ''
        logOffset = 0
      }
      const info = await stat(run.metricsPath).catch(() => undefined)
      const stamp = info ? `${info.mtimeMs}:${info.size}` : ''
      if (stamp !== metricsStamp) {
        const snapshot = await readMetricsFile(run.metricsPath)
        if (snapshot) {
          metricsStamp = stamp
          if (snapshot.rows.length < rowsSent) rowsSent = 0
          if (snapshot.rows.length > rowsSent || rowsSent === 0) {
            send({
              event: 'metrics',
              data: {
                run_id: run.runId,
                from: rowsSent,
                rows: snapshot.rows.slice(rowsSent),
                global_step: snapshot.globalStep,
                max_steps: snapshot.maxSteps,
                best: snapshot.best,
              },
            })
            rowsSent = snapshot.rows.length
          }
        }
      }
      const log = await readLogSince(run.logPath, logOffset)
      logOffset = log.offset
      const lines = log.lines.slice(-(options.backlogLines ?? 200))
      if (lines.length > 0 && !stopped) send({ event: 'log', data: { run_id: run.runId, lines } })
    } finally {
      busy = false
    }
  }
  void tick()
  const timer = setInterval(() => void tick(), options.intervalMs ?? 1000)
  timer.unref()
  return {
    stop() {
      stopped = true
      clearInterval(timer)
      supervisor.off('status', onStatus)
    },
  }
}
