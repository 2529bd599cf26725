import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { stepReplySchema } from '../../../core/wire/openenv-reply.js'
import { stepSession, toParsedAction } from '../../session/session-operations.js'
import { stepRequestSchema } from '../../wire/wire-schemas.js'
import type { RouteModule } from '../route-module.js'
import { type EnvRouteContext, sendJson, sessionAccess, withFreshSession } from './env-route-context.js'

/** `POST /step`: a fresh env reset with the request's seed and options, then the action. */
export const envStepRoute: RouteModule<EnvRouteContext> = (app, context) => {
  app.withTypeProvider<ZodTypeProvider>().post(
    `${context.prefix}/step`,
    {
      config: sessionAccess,
      schema: {
        summary: 'Stateless step: a fresh env reset with seed/options, then the action.',
        tags: context.tags,
        body: stepRequestSchema,
        response: { 200: stepReplySchema },
      },
    },
    (request, reply) => {
      const { action, seed, options: resetOptions, episode_id, request_id } = request.body
      const json = withFreshSession(context, (session) => {
        session.reset({ seed, options: resetOptions, episode_id })
        return stepSession(session, toParsedAction(action))
      })
      // The request_id is echoed as on /ws, so one reply matcher serves both transports.
      sendJson(reply, request_id === undefined ? json : `${json.slice(0, -1)},"request_id":${JSON.stringify(request_id)}}`)
    },
  )
}
