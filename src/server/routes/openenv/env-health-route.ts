import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { RouteModule } from '../route-module.js'
import type { EnvRouteContext } from './env-route-context.js'

const healthSchema = z.looseObject({
  status: z.literal('healthy'),
  active_sessions: z.int(),
  max_sessions: z.int(),
  worker: z.int(),
})

/** `GET /health`: liveness and the session counts of this process. */
export const envHealthRoute: RouteModule<EnvRouteContext> = (app, { context, host, prefix, tags }) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    `${prefix}/health`,
    {
      config: { access: 'public' },
      schema: { summary: 'Liveness and session counts of this process.', tags, response: { 200: healthSchema } },
    },
    () => ({
      status: 'healthy' as const,
      ...context.store.counts(),
      sessions_closed: context.store.closedByReason,
      websockets: context.keepalive.size,
      silent_sockets_dropped: context.keepalive.terminated,
      worker: context.workerIndex,
      env_id: host.id,
    }),
  )
}
