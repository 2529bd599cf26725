import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { stepInput } from '../../session/session-operations.js'
import { sessionStepSchema } from '../../wire/wire-schemas.js'
import type { RouteModule } from '../route-module.js'
import {
  type SessionRouteContext,
  sessionAccess,
  sessionParams,
  sessionReply,
  sessionReplySchema,
} from './session-route-context.js'

/** `POST /sessions/{id}/step`: one tool call; an invalid one is a 200 whose observation holds the error. */
export const sessionStepRoute: RouteModule<SessionRouteContext> = (app, { context, host, prefix, tags, owned }) => {
  app.withTypeProvider<ZodTypeProvider>().post(
    `${prefix}/sessions/:id/step`,
    {
      config: sessionAccess,
      preHandler: owned,
      schema: {
        summary: 'One tool call in the session.',
        tags,
        params: sessionParams,
        body: sessionStepSchema,
        response: { 200: sessionReplySchema },
      },
    },
    (request) => {
      const session = context.store.require(request.params.id, host)
      const input = stepInput(session, session.step({ name: request.body.tool as string, arguments: request.body.arguments }))
      return sessionReply({ session, ...input })
    },
  )
}
