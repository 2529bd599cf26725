import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { clientKeyOf } from '../../http/client-key.js'
import { resetKwargsSchema } from '../../wire/wire-schemas.js'
import type { RouteModule } from '../route-module.js'
import { resetReply, type SessionRouteContext, sessionAccess, sessionReplySchema } from './session-route-context.js'

/** `POST /sessions`: a new env, reset with the body's kwargs; closed again if the reset fails. */
export const sessionCreateRoute: RouteModule<SessionRouteContext> = (app, { context, host, prefix, tags }) => {
  app.withTypeProvider<ZodTypeProvider>().post(
    `${prefix}/sessions`,
    {
      config: sessionAccess,
      schema: {
        summary: 'Create a session: a new env reset with these kwargs (seed, options or a dataset row).',
        tags,
        body: resetKwargsSchema.nullish(),
        response: { 201: sessionReplySchema },
      },
    },
    (request, reply) => {
      const session = context.store.create(host, 'http', clientKeyOf(request.socket.remoteAddress))
      try {
        const body = resetReply(session, request.body ?? undefined)
        reply.code(201).header('location', `${prefix}/sessions/${session.id}`)
        return body
      } catch (error) {
        context.store.close(session.id, 'client_closed')
        throw error
      }
    },
  )
}
