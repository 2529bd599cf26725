/**
 * @module server/http: bearer-token checks. Routes declare an access level in their config:
 * - `public`: health, metadata, schema, docs, the route index, the dashboard's static files;
 * - `session`: env play (OpenEnv routes, sessions, MCP): open when no env token is configured, so stock
 *   OpenEnv and TRL clients (which send no headers) work; token-protected when one is;
 * - `operator`: operator reads (`/outputs/*`, `/train/*` views, `/counters`, `GET /api/eval`): they need
 *   the operator token; a server without one serves them to loopback peers only (decision 0043);
 * - `operational`: routes that change the server or spend compute (`/train/start`, `/hub/push`, …):
 *   they need the operator token always, and answer 403 `token_not_configured` when the server has none.
 * The operator token is `operatorToken`, or `token` when only that is set; it grants every level.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'
import { HttpError } from './http-errors.js'

export type RouteAccess = 'public' | 'session' | 'operator' | 'operational'

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

export interface AccessTokens {
  /** Env play's token (`--token`); env play is open without it. */
  token: string | undefined
  /** The operator token (`--operator-token`); `token` stands in when absent. */
  operatorToken?: string | undefined
}

/** Throws the right `HttpError` when `authorization` does not grant `access`. */
export function checkAccess(
  options: AccessTokens & { access: RouteAccess; authorization: string | undefined; loopbackPeer?: boolean },
): void {
  const { access } = options
  if (access === 'public') return
  const operatorToken = options.operatorToken ?? options.token
  const presented = bearerTokenOf(options.authorization)
  const presentedMatches = (expected: string | undefined) =>
    presented !== undefined && expected !== undefined && tokenMatches(presented, expected)
  if (presentedMatches(operatorToken)) return
  if (access === 'session') {
    if (options.token === undefined || presentedMatches(options.token)) return
    throw unauthorized(presented)
  }
  if (operatorToken === undefined) {
    if (access === 'operator' && options.loopbackPeer === true) return
    throw new HttpError({
      status: 403,
      code: 'token_not_configured',
      message:
        access === 'operator'
          ? 'Operator data is served to loopback peers only when the server has no operator token: start it with --operator-token or RELEASEOPS_OPERATOR_TOKEN.'
          : 'This route needs a bearer token, and the server has none: start it with --operator-token (or --token).',
    })
  }
  throw unauthorized(presented)
}

function unauthorized(presented: string | undefined): HttpError {
  return new HttpError({
    status: 401,
    code: 'unauthorized',
    message: presented === undefined ? 'Missing bearer token (Authorization: Bearer <token>).' : 'Invalid bearer token.',
    headers: { 'www-authenticate': 'Bearer realm="releaseops"' },
  })
}

/** A route registered without an access level: refused at registration, so none is guessed (decision 0047). */
class RouteAccessUndeclaredError extends ReleaseOpsError {
  constructor(method: string, url: string) {
    super({
      code: 'route_access_undeclared',
      message: `Route ${method} ${url} declares no access level: add config.access ('public', 'session', 'operator' or 'operational').`,
      details: { method, url },
    })
    this.name = 'RouteAccessUndeclaredError'
  }
}

/** The access a route declared in its options; the level is the handler's, never the path's. */
export function declaredAccessOf(route: {
  method: string | string[]
  url: string
  config?: { access?: RouteAccess }
}): RouteAccess {
  const access = route.config?.access
  if (access === undefined) throw new RouteAccessUndeclaredError(String(route.method), route.url)
  return access
}

/** A Fastify `onRequest` hook enforcing each route's `config.access` (declared at registration). */
export function tokenGuard(tokens: AccessTokens) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    checkAccess({
      ...tokens,
      // Only the 404 handler has no route config; it serves nothing, and a token is not needed to learn that.
      access: request.routeOptions.config?.access ?? 'public',
      authorization: request.headers.authorization,
      loopbackPeer: isLoopbackAddress(request.socket.remoteAddress),
    })
  }
}

/** The peer's address is loopback (127.0.0.0/8, ::1, their IPv4-mapped forms). */
function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false
  const bare = address.startsWith('::ffff:') ? address.slice(7) : address
  return bare === '::1' || /^127\./.test(bare)
}
