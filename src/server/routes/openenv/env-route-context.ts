/** @module server/routes/openenv: what one env's OpenEnv routes share: the env, its prefix, its tags. */
import type { FastifyReply } from 'fastify'
import type { EnvHost } from '../../env-host.js'
import type { ServerContext } from '../../server-context.js'
import { EnvSession } from '../../session/env-session.js'

export interface EnvRouteOptions {
  context: ServerContext
  host: EnvHost
  /** `''` for the default env at the root, else `/envs/{id}`. */
  prefix: string
}

export interface EnvRouteContext extends EnvRouteOptions {
  tags: string[]
}

/** Route config of the routes that play the env. */
export const sessionAccess = { access: 'session' as const }

export function envRouteContext(options: EnvRouteOptions): EnvRouteContext {
  return { ...options, tags: [options.host.isDefault && options.prefix === '' ? 'default env' : options.host.id] }
}

export function sendJson(reply: FastifyReply, json: string): void {
  reply.type('application/json; charset=utf-8').send(json)
}

/** A fresh env outside the session store, closed after `use` (OpenEnv's stateless HTTP semantics). */
export function withFreshSession<T>(context: EnvRouteContext, use: (session: EnvSession) => T): T {
  const session = new EnvSession({ id: 'stateless', host: context.host, kind: 'http', now: context.context.store.now() })
  try {
    return use(session)
  } finally {
    session.close('client_closed')
  }
}
