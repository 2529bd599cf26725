/**
 * @module server/routes: the original project's HTTP session API, fixed: `POST /sessions` (reset kwargs →
 * `env_id`, observation), `POST /sessions/{id}/step` `{tool, arguments}`, `POST /sessions/{id}/reset`,
 * `GET /sessions/{id}/state`, `DELETE /sessions/{id}`. An invalid action is a 200 whose observation holds
 * the error and whose `reward` shows the penalty (the original answered a bare 400 and hid it).
 * In a cluster, a request for a session another worker owns is forwarded there.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { EnvHost } from '../env-host.js'
import { clientKeyOf } from '../http/client-key.js'
import type { ServerContext } from '../server-context.js'
import type { EnvSession } from '../session/env-session.js'
import { resetInput, stepInput } from '../session/session-operations.js'
import type { ObservationPayloadInput } from '../wire/observation-payload.js'
import { type ResetKwargs, resetKwargsSchema, sessionStepSchema } from '../wire/wire-schemas.js'
import { forwardIfForeign } from './forward-session-request.js'

const sessionParams = z.object({ id: z.string().min(1).max(300).describe('Session id from POST /sessions.') })

const sessionReplySchema = z
  .looseObject({
    env_id: z.string().describe('The session id (the original API called it env_id).'),
    session_id: z.string(),
    env: z.string().describe('The env id, e.g. releaseops-v1.'),
    observation: z.record(z.string(), z.unknown()),
    text: z.string().describe('The observation rendered as the model sees it.'),
    reward: z.number().describe('This step’s reward (0 after a reset); a bad call shows its penalty here.'),
    cumulative_reward: z.number(),
    done: z.boolean(),
    terminated: z.boolean(),
    truncated: z.boolean(),
    info: z.record(z.string(), z.unknown()),
  })
  .describe('A session reset or step.')

/** What an OpenEnv payload is built from, plus the session it belongs to. */
type SessionReplyInput = ObservationPayloadInput & { session: EnvSession }

function sessionReply(input: SessionReplyInput): z.output<typeof sessionReplySchema> {
  const { session, observation, info } = input
  return {
    env_id: session.id,
    session_id: session.id,
    env: session.host.id,
    observation,
    text: input.text,
    reward: input.reward ?? 0,
    cumulative_reward: info.cumulative_reward,
    done: input.terminated || input.truncated,
    terminated: input.terminated,
    truncated: input.truncated,
    terminal_reason: info.terminal_reason ?? null,
    result: observation.result ?? null,
    error: observation.error ?? null,
    info,
  }
}

function resetReply(session: EnvSession, body: ResetKwargs | undefined) {
  const input = resetInput(session, session.reset(body))
  return sessionReply({ session, ...input, reward: 0 })
}

export function registerSessionRoutes(app: FastifyInstance, options: { context: ServerContext; host: EnvHost; prefix: string }) {
  const { context, host, prefix } = options
  const typed = app.withTypeProvider<ZodTypeProvider>()
  const tags = [`${host.id} sessions`]
  const config = { access: 'session' as const }
  const owned = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) =>
    forwardIfForeign({ context, request, reply, sessionId: request.params.id })

  typed.post(
    `${prefix}/sessions`,
    {
      config,
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

  typed.post(
    `${prefix}/sessions/:id/step`,
    {
      config,
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

  typed.post(
    `${prefix}/sessions/:id/reset`,
    {
      config,
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

  typed.get(
    `${prefix}/sessions/:id/state`,
    { config, preHandler: owned, schema: { summary: 'Public episode state of the session.', tags, params: sessionParams } },
    (request) => context.store.require(request.params.id, host).state(),
  )

  typed.delete(
    `${prefix}/sessions/:id`,
    { config, preHandler: owned, schema: { summary: 'Close the session.', tags, params: sessionParams } },
    (request) => {
      context.store.require(request.params.id, host)
      context.store.close(request.params.id, 'client_closed')
      return { env_id: request.params.id, session_id: request.params.id, closed: true }
    },
  )
}
