import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { readLogTail } from '../../../train/log-tail.js'
import type { RouteModule } from '../route-module.js'
import { operatorAccess, type TrainingRouteContext, trainingTags } from './training-route-context.js'

const linesQuery = z.object({ lines: z.coerce.number().int().default(200).describe('Lines from the end (20–5000).') })

/** `GET /train/logs`: the last lines of the run's log, as plain text. */
export const trainLogsRoute: RouteModule<TrainingRouteContext> = (app, context) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/train/logs',
    {
      config: operatorAccess,
      schema: { summary: 'The last lines of the run’s log (plain text).', tags: trainingTags, querystring: linesQuery },
    },
    async (request, reply) => {
      const run = context.supervisor.latestRun()
      reply.type('text/plain; charset=utf-8')
      if (!run) return 'No training log yet. Start a run with POST /train/start.\n'
      const lines = Math.min(5000, Math.max(20, request.query.lines))
      const tail = await readLogTail(run.logPath, { lines })
      return tail.lines.length > 0 ? `${tail.lines.join('\n')}\n` : ''
    },
  )
}
