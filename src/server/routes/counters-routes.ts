/**
 * @module server/routes: `GET /counters`: what clients did with this process's envs (resets, steps,
 * tool calls by name, rejected calls, the last episodes with their rewards), counted by the server
 * itself. Training runs are checked against it.
 */
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { ServerContext } from '../server-context.js'
import type { EnvUsageCounters } from '../usage/env-usage-counters.js'

export function registerCountersRoutes(app: FastifyInstance, options: { context: ServerContext; usage: EnvUsageCounters }): void {
  const typed = app.withTypeProvider<ZodTypeProvider>()
  typed.get(
    '/counters',
    {
      config: { access: 'operator' },
      schema: {
        summary: 'Env usage counted by this server process: resets, steps, tool calls by name, recent episodes.',
        tags: ['server'],
        querystring: z.object({
          recent: z.coerce.number().int().min(0).max(10_000).default(100).describe('Recent episodes to include.'),
          env: z.string().max(100).optional().describe('Only this env.'),
        }),
      },
    },
    (request) => ({
      worker: options.context.workerIndex,
      ...options.usage.snapshot({ recent: request.query.recent, ...(request.query.env ? { envId: request.query.env } : {}) }),
    }),
  )
}
