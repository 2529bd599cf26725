/**
 * Every route that changes state or spends compute needs the operator token: found from the server's own
 * route index (so a new route cannot slip through), then refused without a token (401), with a wrong one
 * (401), and on a server that has no token at all (403 token_not_configured). Nothing ran or was written.
 */
import { readdir } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type OperationsServer, startOperationsServer } from './train-support/operations-server.js'

interface IndexedRoute {
  method: string
  path: string
  access: string
}

const bodies: Record<string, unknown> = {
  '/train/start': { preset: 'smoke' },
  '/hub/push': { repo: 'someone/model', path: 'runs' },
  '/api/eval': { split: 'eval', max_rows: 2 },
}

let server: OperationsServer
let open: OperationsServer
let routes: IndexedRoute[]

beforeAll(async () => {
  server = await startOperationsServer()
  open = await startOperationsServer({ server: { token: undefined } })
  routes = ((await (await server.call('/')).json()) as { routes: IndexedRoute[] }).routes
})

afterAll(async () => {
  await server.dispose()
  await open.dispose()
})

const mutating = () => routes.filter((route) => route.access === 'operational')

describe('operational routes need the token', () => {
  it('the index marks training, pushes and eval jobs operational, all POST', async () => {
    const paths = mutating().map((route) => `${route.method} ${route.path}`)
    expect(paths.sort()).toEqual([
      'POST /api/eval',
      'POST /api/eval/cancel',
      'POST /api/run-eval',
      'POST /hub/push',
      'POST /train/kill',
      'POST /train/pilot',
      'POST /train/push_to_hub',
      'POST /train/smoke',
      'POST /train/start',
      'POST /train/stop',
    ])
    // The original took GET /train/smoke, /train/kill and /train/push_to_hub (CSRF-able): here a GET on
    // them (the original's aliases) only answers 405 naming the POST route; the others have no GET.
    const gets = routes.filter((route) => route.method === 'GET').map((route) => route.path)
    for (const path of ['/train/start', '/train/stop', '/hub/push']) expect(gets).not.toContain(path)
    for (const path of ['/train/smoke', '/train/pilot', '/train/kill', '/train/push_to_hub', '/api/run-eval'])
      expect((await server.call(path, { token: null })).status, path).toBe(405)
    expect(((await (await server.call('/train/status')).json()) as { state: string }).state).toBe('idle')
  })

  it('no route under /train, /hub or /api/eval changes state without being operational', () => {
    const writes = routes.filter(
      (route) => route.method !== 'GET' && /^\/(train|hub|api\/eval|outputs)/.test(route.path) && route.access !== 'operational',
    )
    expect(writes).toEqual([])
  })

  it('refuses each mutating route without a token and with a wrong one (401, WWW-Authenticate)', async () => {
    for (const route of mutating()) {
      for (const presented of [null, 'wrong-token-wrong-token']) {
        const response = await server.call(route.path, { method: route.method, body: bodies[route.path] ?? {}, token: presented })
        const body = (await response.json()) as { error: { code: string } }
        expect(response.status, `${route.method} ${route.path} with ${presented}`).toBe(401)
        expect(body.error.code).toBe('unauthorized')
        expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/)
      }
    }
    expect((await (await server.call('/train/status')).json()) as { state: string }).toMatchObject({ state: 'idle' })
    expect(((await (await server.call('/api/eval')).json()) as { state: string }).state).toBe('idle')
    expect(await readdir(server.outputs)).toEqual([])
  })

  it('a server without a token refuses them with 403 token_not_configured', async () => {
    for (const route of mutating()) {
      const response = await open.call(route.path, { method: route.method, body: bodies[route.path] ?? {} })
      expect(response.status, `${route.method} ${route.path}`).toBe(403)
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('token_not_configured')
    }
  })

  it('a token is never accepted in the URL', async () => {
    const response = await fetch(`${server.url}/train/start?token=${'test-token-0123456789abcdef'}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(response.status).toBe(401)
  })

  it('with the token a bad body is a 422 naming the field, and nothing starts', async () => {
    const response = await server.call('/train/start', {
      method: 'POST',
      body: { preset: 'smoke', max_steps: 0, shell: 'rm -rf /' },
    })
    expect(response.status).toBe(422)
    const body = (await response.json()) as { error: { issues: { path: string }[] } }
    expect(body.error.issues.map((issue) => issue.path).sort()).toEqual(['max_steps', 'shell'])
    expect(((await (await server.call('/train/status')).json()) as { state: string }).state).toBe('idle')
  })

  it('model names and hub repos are validated (no paths, no traversal)', async () => {
    for (const body of [
      { model_name: '../../etc' },
      { model_name: '/abs/path' },
      { hub_repo: 'a/b/c' },
      { hub_repo: 'owner/..' },
      { model_name: 'Qwen/Qwen3-0.6B', model_path: 'models/x' },
    ]) {
      const response = await server.call('/train/start', { method: 'POST', body })
      expect(response.status, JSON.stringify(body)).toBe(422)
    }
    const escaped = await server.call('/train/start', { method: 'POST', body: { model_path: '../outside' } })
    expect(escaped.status).toBe(400)
    expect(((await escaped.json()) as { error: { code: string } }).error.code).toBe('path_traversal')
  })
})
