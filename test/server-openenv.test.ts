/**
 * The OpenEnv HTTP surface: the six runtime checks of `openenv validate --url` (replayed from
 * `cli/_validation.py::validate_running_environment`), at the root and under /envs/{id}, and the
 * stateless routes, schema, metadata, index and local docs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeEnv } from '../src/envs/index.js'
import type { RunningServer } from '../src/server/start-server.js'
import { getJson, type JsonRecord, postJson, startTestServer, TestSocket, wsUrl } from './support/test-server.js'

let server: RunningServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server.close()
})

interface Criterion {
  id: string
  passed: boolean
  actual?: unknown
}

/** The runtime validator's criteria, in its order, with its exact pass conditions. */
async function validateRunningEnvironment(
  baseUrl: string,
): Promise<{ passed: boolean; profile: string; mode: string; criteria: Criterion[] }> {
  const criteria: Criterion[] = []
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
  const fetchJson = async (path: string, init?: RequestInit) => {
    const response = await fetch(`${baseUrl}${path}`, init)
    const text = await response.text()
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    return { status: response.status, json }
  }
  const openapi = await fetchJson('/openapi.json')
  const info = isObject(openapi.json) ? openapi.json.info : undefined
  const version = isObject(info) ? info.version : undefined
  criteria.push({
    id: 'openapi_version_available',
    passed: openapi.status === 200 && typeof version === 'string',
    actual: version,
  })
  const paths = isObject(openapi.json) && isObject(openapi.json.paths) ? openapi.json.paths : {}

  const health = await fetchJson('/health')
  criteria.push({
    id: 'health_endpoint',
    passed: health.status === 200 && isObject(health.json) && health.json.status === 'healthy',
  })

  const metadata = await fetchJson('/metadata')
  criteria.push({
    id: 'metadata_endpoint',
    passed:
      metadata.status === 200 &&
      isObject(metadata.json) &&
      typeof metadata.json.name === 'string' &&
      typeof metadata.json.description === 'string',
  })

  const schema = await fetchJson('/schema')
  criteria.push({
    id: 'schema_endpoint',
    passed:
      schema.status === 200 &&
      isObject(schema.json) &&
      isObject(schema.json.action) &&
      isObject(schema.json.observation) &&
      isObject(schema.json.state),
  })

  const mcp = await fetchJson('/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
  criteria.push({ id: 'mcp_endpoint', passed: mcp.status === 200 && isObject(mcp.json) && mcp.json.jsonrpc === '2.0' })

  const hasReset = '/reset' in paths
  const mode = hasReset ? 'simulation' : 'production'
  const modeOk =
    Object.keys(paths).length > 0 &&
    (hasReset ? '/step' in paths && '/state' in paths : !('/step' in paths) && !('/state' in paths))
  criteria.push({
    id: 'mode_endpoint_consistency',
    passed: modeOk,
    actual: { '/reset': hasReset, '/step': '/step' in paths, '/state': '/state' in paths },
  })
  const profile = typeof version === 'string' && version.startsWith('1.') ? 'openenv-http/1.x' : 'openenv-http/unknown'
  return { passed: criteria.every((criterion) => criterion.passed), profile, mode, criteria }
}

describe('openenv validate --url (runtime checks replayed)', () => {
  it('passes all six checks at the root, in simulation mode, profile openenv-http/1.x', async () => {
    const report = await validateRunningEnvironment(server.url)
    expect(report.criteria.map((criterion) => [criterion.id, criterion.passed])).toEqual([
      ['openapi_version_available', true],
      ['health_endpoint', true],
      ['metadata_endpoint', true],
      ['schema_endpoint', true],
      ['mcp_endpoint', true],
      ['mode_endpoint_consistency', true],
    ])
    expect(report).toMatchObject({ passed: true, profile: 'openenv-http/1.x', mode: 'simulation' })
  })

  it('passes all six checks under /envs/releaseops-v1 too', async () => {
    const report = await validateRunningEnvironment(`${server.url}/envs/releaseops-v1`)
    expect(report.criteria.filter((criterion) => !criterion.passed)).toEqual([])
    expect(report.mode).toBe('simulation')
  })

  it('the replayed validator can fail: an unknown env base fails every check', async () => {
    const report = await validateRunningEnvironment(`${server.url}/envs/nope-v9`)
    expect(report.passed).toBe(false)
    expect(report.criteria.filter((criterion) => criterion.passed)).toEqual([])
  })
})

describe('stateless OpenEnv routes', () => {
  it('POST /reset resets a fresh env and keeps metadata (OpenEnv #616) in both places', async () => {
    const env = makeEnv('releaseops-v1')
    const expected = env.reset({ seed: 42 })
    const reply = await postJson(`${server.url}/envs/releaseops-v1/reset`, { seed: 42 })
    expect(reply.status).toBe(200)
    expect(reply.json.reward).toBe(0)
    expect(reply.json.done).toBe(false)
    expect(reply.json.metadata).toEqual({
      terminated: false,
      truncated: false,
      info: expected.info,
      text: env.render(expected.observation),
    })
    expect(reply.json.observation.metadata).toEqual(reply.json.metadata)
    const { metadata: _metadata, ...observation } = reply.json.observation
    expect(JSON.stringify(observation)).toBe(JSON.stringify(expected.observation))
  })

  it('POST /reset with no body uses the env defaults; a dataset row becomes the options', async () => {
    const env = makeEnv('releaseops-v1')
    const bare = await fetch(`${server.url}/reset`, { method: 'POST' })
    expect(bare.status).toBe(200)
    expect(((await bare.json()) as { metadata: { text: string } }).metadata.text).toBe(env.render(env.reset().observation))
    const row = { seed: 9102, family: 'qa_undercalls_p1_checkout_bug', difficulty: 'medium', split: 'train', prompt: [] }
    const reply = await postJson(`${server.url}/reset`, row)
    const expected = env.reset({
      seed: 9102,
      options: { family: 'qa_undercalls_p1_checkout_bug', difficulty: 'medium', split: 'train', prompt: [] },
    })
    expect(reply.json.metadata.text).toBe(env.render(expected.observation))
  })

  it('POST /step runs the action in a fresh env reset with seed/options; a bad call is a 200 with the penalty', async () => {
    const good = await postJson(`${server.url}/step`, {
      action: { tool: 'hold_release', arguments: { reason_code: 'awaiting_fix' } },
      seed: 7,
    })
    expect(good.status).toBe(200)
    expect(good.json.metadata.info.step_count).toBe(1)
    const bad = await postJson(`${server.url}/step`, {
      action: { tool: 'no_such_tool', arguments: {} },
      timeout_s: 30,
      request_id: 'r-1',
    })
    expect(bad.status).toBe(200)
    expect(bad.json.reward).toBe(-0.25)
    expect(bad.json.observation.error.code).toBe('unknown_tool')
    expect(bad.json.metadata.error).toEqual(bad.json.observation.error)
    expect(bad.json.request_id).toBe('r-1')
  })

  it('OpenEnv differences: seed -1 is a 422, malformed JSON has a detail, reset reward 0', async () => {
    const negative = await postJson(`${server.url}/reset`, { seed: -1 })
    expect(negative.status).toBe(422)
    expect(negative.json.detail[0].loc).toEqual(['body', 'seed'])
    const malformed = await fetch(`${server.url}/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"seed": ',
    })
    expect(malformed.status).toBe(400)
    const body = (await malformed.json()) as { detail: { type: string }[] }
    expect(body.detail[0]?.type).toBe('json_invalid')
    const socket = await TestSocket.open(wsUrl(server.url))
    expect(((await socket.send({ type: 'reset', data: { seed: -1 } })).data as JsonRecord).code).toBe('VALIDATION_ERROR')
    expect(((await socket.send({ type: 'reset', data: { seed: 1 } })).data as JsonRecord).reward).toBe(0)
    await socket.send({ type: 'reset', data: { seed: 1, episode_id: 'mine' } })
    expect(((await socket.send({ type: 'state' })).data as JsonRecord).episode_id).toBe('mine')
    socket.close()
  })

  it('unknown fields are 422 with their paths, FastAPI-style detail included', async () => {
    const reply = await postJson(`${server.url}/step`, { action: { tool: 'hold_release', arguments: {}, foo: 1 }, bar: 2 })
    expect(reply.status).toBe(422)
    expect(reply.json.error.code).toBe('validation_error')
    expect(reply.json.error.issues.map((issue: { path: string }) => issue.path).sort()).toEqual(['action.foo', 'bar'])
    expect(reply.json.detail).toContainEqual({
      type: 'extra_forbidden',
      loc: ['body', 'action', 'foo'],
      msg: 'Extra inputs are not permitted.',
    })
  })

  it('GET /state is a fresh env: no episode, step 0', async () => {
    expect((await getJson(`${server.url}/state`)).json).toEqual({ episode_id: null, step_count: 0 })
  })
})

describe('schema, metadata, index, docs', () => {
  it('/schema publishes one exact action variant per tool, plus MCP actions', async () => {
    const { json } = await getJson(`${server.url}/schema`)
    const titles = json.action.oneOf.map((variant: { title: string }) => variant.title)
    expect(titles).toEqual([...makeEnv('releaseops-v1').spec.tools.map((tool) => tool.name), 'list_tools', 'call_tool'])
    const hold = json.action.oneOf.find((variant: { title: string }) => variant.title === 'hold_release')
    expect(hold.properties.arguments.properties.reason_code.enum).toContain('awaiting_fix')
    expect(json.state.properties).toHaveProperty('episode_id')
  })

  it('/metadata names the env and carries what a client needs to rebuild the spec', async () => {
    const { json } = await getJson(`${server.url}/envs/releaseops-v1/metadata`)
    expect(json).toMatchObject({
      name: 'releaseops-v1',
      env_id: 'releaseops-v1',
      max_episode_steps: 64,
      invalid_action_reward: -0.25,
      default_seed: 42,
    })
    expect(json.tools).toHaveLength(7)
  })

  it('GET / indexes every route, WebSocket ones included, with its access level', async () => {
    const { json } = await getJson(`${server.url}/`)
    const routes = json.routes as { method: string; path: string; websocket: boolean; access: string }[]
    const key = (route: { method: string; path: string }) => `${route.method} ${route.path}`
    const keys = routes.map(key)
    for (const expected of [
      'POST /reset',
      'POST /step',
      'GET /state',
      'GET /ws',
      'POST /mcp',
      'POST /sessions',
      'DELETE /sessions/:id',
      'GET /envs/releaseops-v1/ws',
    ]) {
      expect(keys).toContain(expected)
    }
    expect(routes.find((route) => key(route) === 'GET /ws')?.websocket).toBe(true)
    expect(routes.find((route) => key(route) === 'GET /health')?.access).toBe('public')
    expect(json.default_env).toBe('releaseops-v1')
  })

  it('/docs is Swagger UI served from this server, with no external asset', async () => {
    const response = await fetch(`${server.url}/docs/`)
    const html = await response.text()
    expect(response.status).toBe(200)
    expect(html).toContain('swagger-ui')
    expect(html).not.toMatch(/(src|href)="https?:\/\//)
    expect((await fetch(`${server.url}/docs/static/swagger-ui-bundle.js`)).status).toBe(200)
  })

  it('unknown routes and envs are coded 404s', async () => {
    const env = await getJson(`${server.url}/envs/nope-v1/health`)
    expect(env.status).toBe(404)
    expect(env.json.error.code).toBe('unknown_env')
    expect(env.json.error.known).toContain('releaseops-v1')
    const route = await getJson(`${server.url}/nowhere`)
    expect(route.status).toBe(404)
    expect(route.json.error.code).toBe('not_found')
  })
})
