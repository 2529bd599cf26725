import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { observationReplySchema } from '../../../core/wire/openenv-reply.js'
import { resetSession } from '../../session/session-operations.js'
import { resetKwargsSchema } from '../../wire/wire-schemas.js'
import type { RouteModule } from '../route-module.js'
import { type EnvRouteContext, sendJson, sessionAccess, withFreshSession } from './env-route-context.js'

/** `POST /reset`: a fresh env, reset, closed. */
export const envResetRoute: RouteModule<EnvRouteContext> = (app, context) => {
  app.withTypeProvider<ZodTypeProvider>().post(
    `${context.prefix}/reset`,
    {
      config: sessionAccess,
      schema: {
        summary: 'Stateless reset: a fresh env, reset, closed (use /ws or /sessions for episodes).',
        tags: context.tags,
        body: resetKwargsSchema.nullish(),
        response: { 200: observationReplySchema },
      },
    },
    (request, reply) => {
      sendJson(
        reply,
        withFreshSession(context, (session) => resetSession(session, request.body ?? undefined)),
      )
    },
  )
}
