/**
 * One path for every guard (issue 35 item 3): the Host, Origin and token checks decide on the route the
 * router matched, so a percent-encoded spelling of a path (`/%6dcp`) meets exactly the guards of the plain
 * one. Every route of the index is walked with encoded variants under three presentations (no token, the
 * env token, a foreign Origin); a variant the router resolves to a route must be answered as the plain
 * path is by the guards (refused with the same code, or let through to the handler), and one it does not
 * resolve serves nothing.
 */
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultEnvId, envRegistry } from '../src/envs/index.js'
import { buildServer } from '../src/server/build-server.js'
import type { IndexedRoute } from '../src/server/routes/index-route.js'
import { parseServerOptions, type ServerOptionsInput } from '../src/server/server-options.js'

const envToken = 'env-token-0123456789abcdef'
const operatorToken = 'operator-token-0123456789abcdef'
const foreignOrigin = 'https://attacker.example'

interface Probe {
  app: FastifyInstance
  /** The route pattern the router matched for each request id (undefined: not routed). */
  routed: Map<string, string | undefined>
}

async function probeServer(options: ServerOptionsInput): Promise<Probe> {
  const { app } = await buildServer({
    options: parseServerOptions({ logLevel: 'silent', ...options }),
    registry: envRegistry,
    registryDefaultEnvId: defaultEnvId,
  })
  const routed = new Map<string, string | undefined>()
  app.addHook('onResponse', async (request) => {
    routed.set(String(request.headers['x-probe']), request.routeOptions.url)
  })
  await app.ready()
  return { app, routed }
}

let guarded: Probe
let open: Probe
let routes: IndexedRoute[]

beforeAll(async () => {
  guarded = await probeServer({ token: envToken, operatorToken })
  open = await probeServer({})
  routes = (await guarded.app.inject({ url: '/' })).json().routes
})
afterAll(async () => {
  await guarded.app.close()
  await open.app.close()
})

const concrete = (path: string) => path.replace(/:[a-z_]+/gi, 'x').replace(/\*$/, 'index.html')
const hex = (char: string, upper: boolean) => {
  const code = char.charCodeAt(0).toString(16).padStart(2, '0')
  return `%${upper ? code.toUpperCase() : code}`
}

/** Spellings of one path: each segment's first letter percent-encoded (both cases), every letter encoded, and tricks the router does not resolve. */
function encodedVariants(path: string): string[] {
  const segments = path.split('/')
  const variants = new Set<string>()
  segments.forEach((segment, index) => {
    const letter = /[a-z]/i.exec(segment)
    if (!letter) return
    for (const upper of [false, true]) {
      const encoded = segment.slice(0, letter.index) + hex(letter[0], upper) + segment.slice(letter.index + 1)
      variants.add(segments.map((part, at) => (at === index ? encoded : part)).join('/'))
    }
  })
  variants.add(path.replace(/[a-z]/gi, (char) => hex(char, false)))
  variants.add(`/${path}`)
  variants.add(`${path}/`)
  variants.add(`${path};x`)
  variants.add(`/x/..${path}`)
  variants.add(path.replace(/^\/(\w)/, (_all, first: string) => `/%25${first.charCodeAt(0).toString(16)}`))
  variants.delete(path)
  return [...variants]
}

let probes = 0
async function answer(probe: Probe, route: IndexedRoute, path: string, headers: Record<string, string>) {
  const id = String(probes++)
  const sendsBody = route.method === 'POST' || route.method === 'DELETE'
  const reply = await probe.app.inject({
    method: route.method as 'GET',
    url: path,
    // A peer that is not loopback: operator routes of the tokenless server refuse it, so no handler streams.
    remoteAddress: '203.0.113.9',
    headers: { 'x-probe': id, ...headers, ...(sendsBody ? { 'content-type': 'application/json' } : {}) },
    ...(sendsBody ? { payload: '{not json' } : {}),
  })
  return { status: reply.statusCode, guard: guardDecision(reply.statusCode, reply.body), routedTo: probe.routed.get(id) }
}

const guardCodes = new Set(['unauthorized', 'token_not_configured', 'origin_not_allowed', 'host_not_allowed', 'invalid_host'])

/** What the guards decided: the refusal's code, or `passed` (the handler answered, whatever it said). */
function guardDecision(status: number, body: string): string {
  if (status !== 401 && status !== 403 && status !== 421 && status !== 400) return 'passed'
  try {
    const code = JSON.parse(body)?.error?.code
    return guardCodes.has(code) ? code : 'passed'
  } catch {
    return 'passed'
  }
}

describe('every guard decides on the routed path', () => {
  it('the Origin check on /mcp is not bypassed by percent-encoding (the issue’s exploit)', async () => {
    for (const path of ['/%6dcp', '/envs/releaseops-v3/%6Dcp', '/%6D%63%70']) {
      const body = { jsonrpc: '2.0', id: 1, method: 'openenv/session/create', params: {} }
      const plain = await open.app.inject({ method: 'POST', url: path, payload: body, remoteAddress: '127.0.0.1' })
      expect(plain.statusCode, `${path} is routed to /mcp`).toBe(200)
      expect(plain.json().result.session_id).toBeTypeOf('string')
      const crossOrigin = await open.app.inject({
        method: 'POST',
        url: path,
        payload: body,
        remoteAddress: '127.0.0.1',
        headers: { origin: foreignOrigin },
      })
      expect(crossOrigin.statusCode, path).toBe(403)
      expect(crossOrigin.json().error.code).toBe('origin_not_allowed')
    }
  })

  it('each route, spelled every way, is answered as its plain path or not routed at all', async () => {
    expect(routes.length).toBeGreaterThan(100)
    const presentations: { name: string; probe: () => Probe; headers: Record<string, string> }[] = [
      { name: 'no token', probe: () => guarded, headers: {} },
      { name: 'env token', probe: () => guarded, headers: { authorization: `Bearer ${envToken}` } },
      { name: 'foreign origin', probe: () => open, headers: { origin: foreignOrigin } },
    ]
    let routedVariants = 0
    const mismatches: string[] = []
    for (const route of routes) {
      const plainPath = concrete(route.path)
      for (const presentation of presentations) {
        const plain = await answer(presentation.probe(), route, plainPath, presentation.headers)
        expect(plain.routedTo, `${route.method} ${plainPath}`).toBe(route.path)
        for (const variant of encodedVariants(plainPath)) {
          const seen = await answer(presentation.probe(), route, variant, presentation.headers)
          if (seen.routedTo === undefined) {
            if (seen.status !== 404 && seen.status !== 400) mismatches.push(`${route.method} ${variant}: unrouted ${seen.status}`)
            continue
          }
          // Another route (`/ui` + `/` is `/ui/`): walked as itself.
          if (seen.routedTo !== route.path) continue
          routedVariants++
          if (seen.guard !== plain.guard) {
            mismatches.push(`${route.method} ${variant} (${presentation.name}): ${seen.guard}, plain ${plain.guard}`)
          }
        }
      }
    }
    expect(mismatches).toEqual([])
    // The walk proves something only if the router does resolve encoded spellings.
    expect(routedVariants).toBeGreaterThan(routes.length * 3 * 3)
  })
})
