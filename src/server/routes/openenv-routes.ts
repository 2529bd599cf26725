/**
 * @module server/routes: OpenEnv's HTTP routes for one env, as OpenEnv's server serves them (docs/wire-reference.md §1):
 * stateless `POST /reset`, `POST /step`, `GET /state` (a fresh env per request, closed after), plus
 * `GET /schema`, `GET /metadata`, `GET /health` and the `WS /ws` session endpoint.
 */
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { observationReplySchema, stepReplySchema } from '../../core/wire/openenv-reply.js'
import type { EnvHost } from '../env-host.js'
import { clientKeyOf } from '../http/client-key.js'
import { HttpError } from '../http/http-errors.js'
import { batchLimitsOf } from '../mcp/mcp-routes.js'
import type { ServerContext } from '../server-context.js'
import { EnvSession } from '../session/env-session.js'
import { resetSession, stepSession, toParsedAction } from '../session/session-operations.js'
import { resetKwargsSchema, stepRequestSchema } from '../wire/wire-schemas.js'
import { acceptEnvSocket } from '../ws/env-socket.js'

const healthSchema = z.looseObject({
  status: z.literal('healthy'),
  active_sessions: z.int(),
  max_sessions: z.int(),
  worker: z.int(),
})

export interface EnvRouteOptions {
  context: ServerContext
  host: EnvHost
  /** `''` for the default env at the root, else `/envs/{id}`. */
  prefix: string
}

function sendJson(reply: FastifyReply, json: string): void {
  reply.type('application/json; charset=utf-8').send(json)
}

/** A fresh env outside the session store, closed after `use` (OpenEnv's stateless HTTP semantics). */
function withFreshSession<T>(context: ServerContext, host: EnvHost, use: (session: EnvSession) => T): T {
  const session = new EnvSession({ id: 'stateless', host, kind: 'http', now: context.store.now() })
  try {
    return use(session)
  } finally {
    session.close('client_closed')
  }
}

export function registerOpenEnvRoutes(app: FastifyInstance, options: EnvRouteOptions): void {
  const { context, host, prefix } = options
  const typed = app.withTypeProvider<ZodTypeProvider>()
  const tags = [host.isDefault && prefix === '' ? 'default env' : host.id]
  const session = { access: 'session' as const }

  typed.post(
    `${prefix}/reset`,
    {
      config: session,
      schema: {
        summary: 'Stateless reset: a fresh env, reset, closed (use /ws or /sessions for episodes).',
        tags,
        body: resetKwargsSchema.nullish(),
        response: { 200: observationReplySchema },
      },
    },
    (request, reply) => {
      sendJson(
        reply,
        withFreshSession(context, host, (session) => resetSession(session, request.body ?? undefined)),
      )
    },
  )

  typed.post(
    `${prefix}/step`,
    {
      config: session,
      schema: {
        summary: 'Stateless step: a fresh env reset with seed/options, then the action.',
        tags,
        body: stepRequestSchema,
        response: { 200: stepReplySchema },
      },
    },
    (request, reply) => {
      const { action, seed, options: resetOptions, episode_id, request_id } = request.body
      const json = withFreshSession(context, host, (session) => {
        session.reset({ seed, options: resetOptions, episode_id })
        return stepSession(session, toParsedAction(action))
      })
      // The request_id is echoed as on /ws, so one reply matcher serves both transports.
      sendJson(reply, request_id === undefined ? json : `${json.slice(0, -1)},"request_id":${JSON.stringify(request_id)}}`)
    },
  )

  typed.get(`${prefix}/state`, { config: session, schema: { summary: 'State of a fresh env (stateless).', tags } }, () =>
    withFreshSession(context, host, (session) => session.state()),
  )

  typed.get(
    `${prefix}/schema`,
    { config: { access: 'public' }, schema: { summary: 'JSON Schemas of action, observation and state.', tags } },
    () => host.schemas(),
  )

  typed.get(
    `${prefix}/metadata`,
    { config: { access: 'public' }, schema: { summary: 'Env metadata: name, description, version, tools, limits.', tags } },
    () => host.metadata(),
  )

  typed.get(
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

  app.route({
    method: 'GET',
    url: `${prefix}/ws`,
    config: session,
    schema: { summary: 'OpenEnv WebSocket session: one env per connection.', tags, hide: true },
    handler: async () => {
      throw new HttpError({
        status: 426,
        code: 'upgrade_required',
        message: 'Connect with a WebSocket client.',
        headers: { upgrade: 'websocket' },
      })
    },
    wsHandler: (socket, request) => {
      acceptEnvSocket(socket, {
        host,
        store: context.store,
        keepalive: context.keepalive,
        shutdown: context.shutdown,
        client: clientKeyOf(request.socket.remoteAddress),
        limits: batchLimitsOf(context),
        log: request.log,
      })
    },
  })
}
