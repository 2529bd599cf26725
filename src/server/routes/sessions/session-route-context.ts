/** @module server/routes/sessions: what the session routes share: the env, the reply shape, the owner check. */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { EnvHost } from '../../env-host.js'
import type { ServerContext } from '../../server-context.js'
import type { EnvSession } from '../../session/env-session.js'
import { resetInput } from '../../session/session-operations.js'
import type { ObservationPayloadInput } from '../../wire/observation-payload.js'
import type { ResetKwargs } from '../../wire/wire-schemas.js'
import { forwardIfForeign } from '../forward-session-request.js'

export interface SessionRouteOptions {
  context: ServerContext
  host: EnvHost
  prefix: string
}

export interface SessionRouteContext extends SessionRouteOptions {
  tags: string[]
  /** In a cluster, a request for a session another worker owns is forwarded there. */
  owned: (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => Promise<unknown>
}

export const sessionAccess = { access: 'session' as const }

export function sessionRouteContext(options: SessionRouteOptions): SessionRouteContext {
  return {
    ...options,
    tags: [`${options.host.id} sessions`],
    owned: async (request, reply) => forwardIfForeign({ context: options.context, request, reply, sessionId: request.params.id }),
  }
}

export const sessionParams = z.object({ id: z.string().min(1).max(300).describe('Session id from POST /sessions.') })

export const sessionReplySchema = z
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

export function sessionReply(input: SessionReplyInput): z.output<typeof sessionReplySchema> {
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

export function resetReply(session: EnvSession, body: ResetKwargs | undefined) {
  const input = resetInput(session, session.reset(body))
  return sessionReply({ session, ...input, reward: 0 })
}
