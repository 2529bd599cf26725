/**
 * @module server/http: DNS-rebinding and cross-origin defences (decision 0043).
 * - `Host`: a request must name this server by a loopback name, an IP literal (an address cannot be
 *   rebound) or an allowed name (`--allowed-hosts`, `*.example.org` patterns, `*` for any); otherwise 421.
 * - `Origin`: a WebSocket upgrade or an `/mcp` request that carries an Origin (browsers do) must be
 *   same-origin (its host:port is the request's Host) or an allowed origin (`--allowed-origins`); otherwise
 *   403. Clients that send no Origin (OpenEnv, TRL, MCP SDKs, curl) are unaffected.
 */
import { isIP } from 'node:net'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { HttpError } from './http-errors.js'

export interface HostPolicyOptions {
  /** Host names accepted besides loopback names and IP literals; `*` accepts any. */
  allowedHosts: readonly string[]
  /** Origins (`scheme://host[:port]`) accepted besides same-origin ones; `*` accepts any. */
  allowedOrigins: readonly string[]
}

const loopbackNames = new Set(['localhost', 'localhost.localdomain', 'ip6-localhost', 'ip6-loopback'])

/** The host name of a `Host` header value (port and IPv6 brackets removed, lower case). */
export function hostNameOf(host: string): string {
  const lower = host.trim().toLowerCase()
  if (lower.startsWith('[')) return lower.slice(1, lower.indexOf(']') > 0 ? lower.indexOf(']') : undefined)
  const colon = lower.lastIndexOf(':')
  return colon >= 0 && lower.indexOf(':') === colon ? lower.slice(0, colon) : lower
}

export function isAllowedHost(host: string | undefined, allowed: readonly string[]): boolean {
  if (host === undefined || host === '') return false
  const name = hostNameOf(host).replace(/\.$/, '')
  if (loopbackNames.has(name) || name.endsWith('.localhost') || isIP(name) !== 0) return true
  return allowed.some((pattern) => {
    const lower = pattern.toLowerCase()
    if (lower === '*') return true
    if (lower.startsWith('*.')) return name.endsWith(lower.slice(1)) && name.length > lower.length - 1
    return name === lower
  })
}

export function isAllowedOrigin(options: {
  origin: string
  host: string | undefined
  allowedOrigins: readonly string[]
}): boolean {
  const { origin, allowedOrigins } = options
  if (allowedOrigins.includes('*')) return true
  let parsed: URL
  try {
    parsed = new URL(origin)
  } catch {
    return false // includes the literal "null" origin of sandboxed frames and file: pages
  }
  if (allowedOrigins.some((allowed) => allowed.replace(/\/$/, '').toLowerCase() === parsed.origin.toLowerCase())) return true
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false
  return options.host !== undefined && parsed.host === new URL(`${parsed.protocol}//${options.host}`).host
}

/** A Fastify `onRequest` hook: Host on every request, Origin on WebSocket upgrades and `/mcp`. */
export function hostGuard(options: HostPolicyOptions) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const host = request.headers.host
    if (!isAllowedHost(host, options.allowedHosts)) {
      throw new HttpError({
        status: 421,
        code: 'host_not_allowed',
        message: `Host ${JSON.stringify(String(host ?? '').slice(0, 100))} is not one this server answers to; start it with --allowed-hosts to add names.`,
      })
    }
    const origin = request.headers.origin
    if (origin === undefined) return
    const upgrade = request.headers.upgrade?.toLowerCase() === 'websocket'
    const mcp = /\/mcp(?:\?|$)/.test(request.url)
    if ((upgrade || mcp) && !isAllowedOrigin({ origin, host, allowedOrigins: options.allowedOrigins })) {
      throw new HttpError({
        status: 403,
        code: 'origin_not_allowed',
        message: `Cross-origin request from ${JSON.stringify(origin.slice(0, 100))} refused; start the server with --allowed-origins to allow it.`,
      })
    }
  }
}
