import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { resetKwargsSchema } from '../../wire/wire-schemas.js'
import type { RouteModule } from '../route-module.js'
import {
  resetReply,
  type SessionRouteContext,
  sessionAccess,
  sessionParams,
  sessionReplySchema,
} from './session-route-context.js'

/** `POST /sessions/{id}/reset`: a new episode in the same session. */
export const sessionResetRoute: RouteModule<SessionRouteContext> = (app, { context, host, prefix, tags, owned }) => {
  app.withTypeProvider<ZodTypeProvider>().post(
    `${prefix}/sessions/:id/reset`,
    {
      config: sessionAccess,
      preHandler: owned,
      schema: {
        summary: 'Start a new episode in the same session.',
        tags,
        params: sessionParams,
        body: resetKwargsSchema.nullish(),
        response: { 200: sessionReplySchema },
      },
    },
    (request) => resetReply(context.store.require(request.params.id, host), request.body ?? undefined),
  )
}
