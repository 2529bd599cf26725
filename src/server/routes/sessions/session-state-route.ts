import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { RouteModule } from '../route-module.js'
import { type SessionRouteContext, sessionAccess, sessionParams } from './session-route-context.js'

/** `GET /sessions/{id}/state`: the session's public episode state. */
export const sessionStateRoute: RouteModule<SessionRouteContext> = (app, { context, host, prefix, tags, owned }) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    `${prefix}/sessions/:id/state`,
    {
      config: sessionAccess,
      preHandler: owned,
      schema: { summary: 'Public episode state of the session.', tags, params: sessionParams },
    },
    (request) => context.store.require(request.params.id, host).state(),
  )
}
