/**
 * @module server/http: DNS-rebinding and cross-origin defences (decisions 0043, 0047).
 * - `Host`: must be `name[:port]` or `[ipv6][:port]` (RFC 9110 `uri-host [":" port]`, port 0–65535);
 *   anything else (`localhost:abc`, `[::1`, `a:80@b`) is a 400 `invalid_host` before any other check.
 *   It must name this server by a loopback name, an IP literal (an address cannot be rebound) or an
 *   allowed name (`--allowed-hosts`, `*.example.org` patterns, `*` for any); otherwise 421.
 * - `Origin`: a WebSocket upgrade or an `/mcp` request that carries an Origin (browsers do) must be
 *   same-origin (its scheme's host and port are the request's Host's) or an allowed origin
 *   (`--allowed-origins`); otherwise 403. Clients that send no Origin (OpenEnv, TRL, MCP SDKs, curl) are
 *   unaffected.
 * Both decide on the route the router matched (`routedPath`), never on the raw URL: `/%6dcp` is `/mcp`
 * to the router, so it is `/mcp` to the guards too (decision 0067).
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

/** A `Host` header value, parsed: `name` lower case without brackets; `port` absent when not given. */
export interface ParsedHost {
  name: string
  port: number | undefined
  /** `name` as it appears in a URL (IPv6 addresses in brackets). */
  urlName: string
}

const loopbackNames = new Set(['localhost', 'localhost.localdomain', 'ip6-localhost', 'ip6-loopback'])
// reg-name / IPv4 (letters, digits, '-', '.', '_') or a bracketed IPv6 literal, then an optional port.
const hostPattern = /^(?:([a-z0-9_.-]+)|\[([0-9a-f:.]+)\])(?::(\d{1,5}))?$/

/** The parsed `Host` value, or undefined when it is not a well-formed `host[:port]`. */
export function parseHost(value: string | undefined): ParsedHost | undefined {
  if (value === undefined) return undefined
  const match = hostPattern.exec(value.trim().toLowerCase())
  if (!match) return undefined
  const [, regName, ipv6, portText] = match
  if (ipv6 !== undefined && isIP(ipv6) !== 6) return undefined
  const port = portText === undefined ? undefined : Number(portText)
  if (port !== undefined && port > 65_535) return undefined
  const name = (regName ?? ipv6 ?? '').replace(/\.$/, '')
  if (name === '') return undefined
  return { name, port, urlName: ipv6 === undefined ? name : `[${ipv6}]` }
}

export function isAllowedHost(host: string | undefined, allowed: readonly string[]): boolean {
  const parsed = parseHost(host)
  if (parsed === undefined) return false
  const { name } = parsed
  if (loopbackNames.has(name) || name.endsWith('.localhost') || isIP(name) !== 0) return true
  return allowed.some((pattern) => {
    const lower = pattern.toLowerCase()
    if (lower === '*') return true
    if (lower.startsWith('*.')) return name.endsWith(lower.slice(1)) && name.length > lower.length - 1
    return name === lower
  })
}

const defaultPorts: Record<string, number> = { 'http:': 80, 'https:': 443 }

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
  const defaultPort = defaultPorts[parsed.protocol]
  if (defaultPort === undefined) return false
  // Same origin: the Origin's host and port are the Host's, compared as parsed values (never re-parsed text).
  const host = parseHost(options.host)
  if (host === undefined) return false
  const originPort = parsed.port === '' ? defaultPort : Number(parsed.port)
  return parsed.hostname.toLowerCase() === host.urlName && originPort === (host.port ?? defaultPort)
}

/**
 * The path a guard decides on: the pattern of the route the router matched (percent-decoded, as the
 * router decodes it), or undefined when no route matched (the 404 handler serves nothing).
 */
function routedPath(request: FastifyRequest): string | undefined {
  return request.routeOptions.url
}

/** `/mcp` at the root or under `/envs/{id}`, as routed. */
function isMcpPath(path: string | undefined): boolean {
  return path !== undefined && /(?:^|\/)mcp$/.test(path)
}

/** A Fastify `onRequest` hook: Host on every request, Origin on WebSocket upgrades and `/mcp`. */
export function hostGuard(options: HostPolicyOptions) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const host = request.headers.host
    const shown = JSON.stringify(String(host ?? '').slice(0, 100))
    if (parseHost(host) === undefined) {
      throw new HttpError({
        status: 400,
        code: 'invalid_host',
        message: `Host ${shown} is not a valid host[:port] (port 0–65535, IPv6 in brackets).`,
      })
    }
    if (!isAllowedHost(host, options.allowedHosts)) {
      throw new HttpError({
        status: 421,
        code: 'host_not_allowed',
        message: `Host ${shown} is not one this server answers to; start it with --allowed-hosts to add names.`,
      })
    }
    const origin = request.headers.origin
    if (origin === undefined) return
    const upgrade = request.headers.upgrade?.toLowerCase() === 'websocket'
    const mcp = isMcpPath(routedPath(request))
    if ((upgrade || mcp) && !isAllowedOrigin({ origin, host, allowedOrigins: options.allowedOrigins })) {
      throw new HttpError({
        status: 403,
        code: 'origin_not_allowed',
        message: `Cross-origin request from ${JSON.stringify(origin.slice(0, 100))} refused; start the server with --allowed-origins to allow it.`,
      })
    }
  }
}
