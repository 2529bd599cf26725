/**
 * The access matrix (issue 28 item 1): every registered route — as Fastify's `onRoute` saw it, aliases
 * under `/envs/{id}` and the original Space's included — has the access level its own registration
 * declared, and the server enforces exactly that level: operator and operational routes are refused
 * without the operator token (and with only the env token), session routes need the env token, public
 * routes need nothing. A route that declares no level cannot be registered; a path does not raise one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultEnvId, envRegistry } from '../src/envs/index.js'
import { buildServer } from '../src/server/build-server.js'
import type { IndexedRoute } from '../src/server/routes/index-route.js'
import { parseServerOptions } from '../src/server/server-options.js'
import { type OperationsServer, startOperationsServer } from './train-support/operations-server.js'

const envToken = 'env-token-0123456789abcdef'
const operatorToken = 'operator-token-0123456789abcdef'
let server: OperationsServer
let routes: IndexedRoute[]

beforeAll(async () => {
  server = await startOperationsServer({ server: { token: envToken, operatorToken } })
  routes = ((await (await fetch(`${server.url}/`)).json()) as { routes: IndexedRoute[] }).routes
})
afterAll(async () => {
  await server.dispose()
})

/** A concrete URL for a route pattern (`:id` and `*` filled with harmless values). */
const concrete = (path: string) => path.replace(/:[a-z_]+/gi, 'x').replace(/\*$/, 'index.html')

/** The status of one request; the body is read only when small (SSE routes stream forever). */
async function statusOf(route: IndexedRoute, token: string | undefined): Promise<number> {
  const headers: Record<string, string> = {}
  if (token) headers.authorization = `Bearer ${token}`
  const sendsBody = route.method === 'POST' || route.method === 'DELETE'
  // Not JSON: a route that lets the request through answers 400 invalid_json, so nothing runs.
  if (sendsBody) headers['content-type'] = 'application/json'
  const response = await fetch(`${server.url}${concrete(route.path)}`, {
    method: route.method,
    headers,
    ...(sendsBody ? { body: '{not json' } : {}),
  })
  await response.body?.cancel()
  return response.status
}

const refused = (status: number) => status === 401 || status === 403

describe('the access matrix', () => {
  it('every route declared its level at registration, and the server checks that very level', async () => {
    const built = await buildServer({
      options: parseServerOptions({ logLevel: 'silent' }),
      registry: envRegistry,
      registryDefaultEnvId: defaultEnvId,
    })
    // What the token guard read for each request: the route's own config (a reply hook sees every request).
    const checked = new Map<string, unknown>()
    built.app.addHook('onResponse', async (request) => {
      checked.set(`${request.method} ${request.routeOptions.url}`, request.routeOptions.config.access)
    })
    await built.app.ready()
    expect(routes.length).toBeGreaterThan(100)
    for (const route of routes) {
      const name = `${route.method} ${route.path}`
      expect(['public', 'session', 'operator', 'operational'], name).toContain(route.access)
      await built.app.inject({ method: route.method as 'GET', url: concrete(route.path), remoteAddress: '203.0.113.9' })
      expect(checked.get(name), name).toBe(route.access)
    }
    await built.app.close()
  })

  it('the operator level is where the handlers put it: eval results, training views, outputs, counters', () => {
    const operator = routes.filter((route) => route.access === 'operator').map((route) => `${route.method} ${route.path}`)
    expect(operator.sort()).toEqual([
      'GET /api/eval',
      'GET /api/get-eval-results',
      'GET /counters',
      'GET /outputs/archive',
      'GET /outputs/file',
      'GET /outputs/ls',
      'GET /train/live',
      'GET /train/logs',
      'GET /train/metrics',
      'GET /train/plot',
      'GET /train/plot.png',
      'GET /train/runs',
      'GET /train/status',
      'GET /train/summary',
    ])
    // Public routes on operator paths are only the 405 answers of the original's POST aliases.
    const publicOnOperatorPaths = routes.filter(
      (route) =>
        route.access === 'public' && /^\/(?:outputs|train|counters|hub|api\/(?:eval|get-eval|run-eval))/.test(route.path),
    )
    expect(publicOnOperatorPaths.map((route) => `${route.method} ${route.path}`).sort()).toEqual([
      'GET /api/run-eval',
      'GET /train/kill',
      'GET /train/pilot',
      'GET /train/push_to_hub',
      'GET /train/smoke',
    ])
  })

  it('every operator and operational route, aliases included, is refused without the operator token', async () => {
    const guarded = routes.filter((route) => route.access === 'operator' || route.access === 'operational')
    expect(guarded.length).toBeGreaterThanOrEqual(23)
    for (const route of guarded) {
      const name = `${route.method} ${route.path}`
      expect(await statusOf(route, undefined), `${name} without a token`).toBe(401)
      expect(await statusOf(route, envToken), `${name} with the env token`).toBe(401)
      expect(refused(await statusOf(route, operatorToken)), `${name} with the operator token`).toBe(false)
    }
    expect(((await (await server.call('/train/status', { token: operatorToken })).json()) as { state: string }).state).toBe(
      'idle',
    )
  })

  it('session routes need the env (or operator) token; public ones nothing', async () => {
    for (const route of routes.filter((entry) => entry.access === 'session')) {
      const name = `${route.method} ${route.path}`
      expect(await statusOf(route, undefined), name).toBe(401)
      expect(refused(await statusOf(route, envToken)), name).toBe(false)
      expect(refused(await statusOf(route, operatorToken)), name).toBe(false)
    }
    for (const route of routes.filter((entry) => entry.access === 'public')) {
      expect(refused(await statusOf(route, undefined)), `${route.method} ${route.path}`).toBe(false)
    }
  })

  it('a tokenless server refuses every operator route to a non-loopback peer (403)', async () => {
    const built = await buildServer({
      options: parseServerOptions({ logLevel: 'silent' }),
      registry: envRegistry,
      registryDefaultEnvId: defaultEnvId,
    })
    for (const route of routes.filter((entry) => entry.access === 'operator' || entry.access === 'operational')) {
      const reply = await built.app.inject({
        method: route.method as 'GET',
        url: concrete(route.path),
        remoteAddress: '203.0.113.9',
      })
      expect(reply.statusCode, `${route.method} ${route.path}`).toBe(403)
      expect(reply.json().error.code).toBe('token_not_configured')
    }
    await built.app.close()
  })

  it('a route must declare its level; a declared level is not raised or lowered by its path', async () => {
    const built = await buildServer({
      options: parseServerOptions({ logLevel: 'silent', operatorToken }),
      registry: envRegistry,
      registryDefaultEnvId: defaultEnvId,
    })
    expect(() => built.app.get('/api/another-view', async () => ({}))).toThrow(
      expect.objectContaining({ code: 'route_access_undeclared' }),
    )
    built.app.get('/api/another-view', { config: { access: 'operator' } }, async () => ({ secret: true }))
    built.app.get('/train/public-note', { config: { access: 'public' } }, async () => ({ note: true }))
    expect((await built.app.inject({ url: '/api/another-view' })).statusCode).toBe(401)
    expect((await built.app.inject({ url: '/train/public-note' })).statusCode).toBe(200)
    await built.app.close()
  })
})
