/**
 * @module server/http: bearer-token checks. Routes declare an access level in their config:
 * - `public`: health, metadata, schema, docs, the route index;
 * - `session`: env play (OpenEnv routes, sessions, MCP): open when no token is configured, so stock
 *   OpenEnv and TRL clients work on a loopback server; token-protected when one is;
 * - `operational`: routes that change the server or spend compute (the coming `/train/*`): they need a
 *   token always, and answer 403 `token_not_configured` when the server has none.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { HttpError } from './http-errors.js'

export type RouteAccess = 'public' | 'session' | 'operational'

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess
    /** Errors on this route are answered as JSON-RPC (HTTP 200), as OpenEnv's `/mcp` does. */
    jsonRpc?: boolean
  }
}

const digest = (value: string) => createHash('sha256').update(value).digest()

/** Constant-time comparison of a presented token with the configured one. */
export function tokenMatches(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected))
}

export function bearerTokenOf(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header)
  return match?.[1]
}

/** Throws the right `HttpError` when `authorization` does not grant `access`. */
export function checkAccess(options: {
  access: RouteAccess
  token: string | undefined
  authorization: string | undefined
}): void {
  const { access, token } = options
  if (access === 'public') return
  if (token === undefined) {
    if (access === 'session') return
    throw new HttpError({
      status: 403,
      code: 'token_not_configured',
      message: 'This route needs a bearer token, and the server has none: start it with --token or RELEASEOPS_TOKEN.',
    })
  }
  const presented = bearerTokenOf(options.authorization)
  if (presented === undefined || !tokenMatches(presented, token)) {
    throw new HttpError({
      status: 401,
      code: 'unauthorized',
      message: presented === undefined ? 'Missing bearer token (Authorization: Bearer <token>).' : 'Invalid bearer token.',
      headers: { 'www-authenticate': 'Bearer realm="releaseops"' },
    })
  }
}

/** A Fastify `onRequest` hook enforcing each route's `config.access` (default `session`). */
export function tokenGuard(token: string | undefined) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    checkAccess({ access: request.routeOptions.config?.access ?? 'session', token, authorization: request.headers.authorization })
  }
}
