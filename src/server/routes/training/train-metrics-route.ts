import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { readMetricsFile } from '../../../train/log-history.js'
import type { RouteModule } from '../route-module.js'
import { operatorAccess, type TrainingRouteContext, trainingTags } from './training-route-context.js'

/** `GET /train/metrics`: the run's log history, or the original Space's `{smoke, pilot}`. */
export const trainMetricsRoute: RouteModule<TrainingRouteContext> = (app, context) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/train/metrics',
    {
      config: operatorAccess,
      schema: {
        summary: 'The run’s log history (live: rewritten on every log/save). `?format=original`: the original’s {smoke, pilot}.',
        tags: trainingTags,
        querystring: z.object({ format: z.enum(['releaseops', 'original']).default('releaseops') }),
      },
    },
    async (request) => {
      const { supervisor } = context
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
