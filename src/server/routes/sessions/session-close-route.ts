import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { RouteModule } from '../route-module.js'
import { type SessionRouteContext, sessionAccess, sessionParams } from './session-route-context.js'

/** `DELETE /sessions/{id}`: closes the session. */
export const sessionCloseRoute: RouteModule<SessionRouteContext> = (app, { context, host, prefix, tags, owned }) => {
  app
    .withTypeProvider<ZodTypeProvider>()
    .delete(
      `${prefix}/sessions/:id`,
      { config: sessionAccess, preHandler: owned, schema: { summary: 'Close the session.', tags, params: sessionParams } },
      (request) => {
        context.store.require(request.params.id, host)
        context.store.close(request.params.id, 'client_closed')
        return { env_id: request.params.id, session_id: request.params.id, closed: true }
      },
    )
}
