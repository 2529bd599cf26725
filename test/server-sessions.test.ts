/**
 * The HTTP session API (the original project's, fixed), body and frame limits, malformed input, and
 * the bearer token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { makeEnv } from '../src/envs/index.js'
import type { RunningServer } from '../src/server/start-server.js'
import { getJson, postJson, startTestServer, TestSocket, wsUrl } from './support/test-server.js'

let server: RunningServer
let sessions: string

beforeAll(async () => {
  server = await startTestServer({ maxSessions: 4, bodyLimitBytes: 4096, maxFrameBytes: 4096 })
  sessions = `${server.url}/envs/releaseops-v1/sessions`
})
afterAll(async () => {
  await server.close()
})

describe('session API', () => {
  it('POST /sessions resets with a dataset row; steps report the step reward and the running total', async () => {
    const row = dataset()[0] as Record<string, unknown>
    const created = await postJson(sessions, row)
    expect(created.status).toBe(201)
    const id = created.json.env_id as string
    expect(created.json.session_id).toBe(id)
    expect(created.headers.get('location')).toBe(`/envs/releaseops-v1/sessions/${id}`)
    const env = makeEnv('releaseops-v1')
    const reset = env.reset({ seed: row.seed as number, options: row })
    expect(created.json).toMatchObject({
      env: 'releaseops-v1',
      reward: 0,
      cumulative_reward: 0,
      done: false,
      text: env.render(reset.observation),
    })

    const bad = await postJson(`${sessions}/${id}/step`, { tool: 'approve_proposal', arguments: { proposal_id: 'p999' } })
    const expectedBad = env.step({ name: 'approve_proposal', arguments: { proposal_id: 'p999' } })
    expect(bad.status).toBe(200)
    expect(bad.json).toMatchObject({ reward: -0.25, cumulative_reward: -0.25, done: false, error: expectedBad.observation.error })
    expect(bad.json.text).toBe(env.render(expectedBad.observation))

    const hold = await postJson(`${sessions}/${id}/step`, { tool: 'hold_release', arguments: '{"reason_code": "awaiting_fix"}' })
    const expectedHold = env.step({ name: 'hold_release', arguments: '{"reason_code": "awaiting_fix"}' })
    expect(hold.json).toMatchObject({
      reward: expectedHold.reward,
      cumulative_reward: expectedHold.info.cumulative_reward,
      result: expectedHold.observation.result,
    })

    const state = await getJson(`${sessions}/${id}/state`)
    expect(state.json).toEqual({ episode_id: null, step_count: 2, ...env.state() })

    const again = await postJson(`${sessions}/${id}/reset`, { seed: 5 })
    expect(again.json).toMatchObject({ env_id: id, reward: 0, done: false })
    expect((await getJson(`${sessions}/${id}/state`)).json.step_count).toBe(0)

    const closed = await fetch(`${sessions}/${id}`, { method: 'DELETE' })
    expect(await closed.json()).toEqual({ env_id: id, session_id: id, closed: true })
    const gone = await postJson(`${sessions}/${id}/step`, { tool: 'hold_release', arguments: {} })
    expect(gone.status).toBe(404)
    expect(gone.json.error.code).toBe('unknown_session')
  })

  it('a step with no episode left is a 409 reset_needed; a session is bound to its env', async () => {
    const id = (await postJson(sessions, {})).json.env_id as string
    for (let step = 0; step < 64; step++) await postJson(`${sessions}/${id}/step`, { tool: 'nope' })
    const after = await postJson(`${sessions}/${id}/step`, { tool: 'nope' })
    expect(after.status).toBe(409)
    expect(after.json.error.code).toBe('reset_needed')
    expect((await getJson(`${server.url}/envs/releaseops-v1/sessions/not-a-session/state`)).status).toBe(404)
    await fetch(`${sessions}/${id}`, { method: 'DELETE' })
  })

  it('capacity: a 429 with the counts, which frees when a session closes', async () => {
    const ids = []
    for (let index = server.context.store.size; index < 4; index++) ids.push((await postJson(sessions, {})).json.env_id as string)
    const refused = await postJson(sessions, {})
    expect(refused.status).toBe(429)
    expect(refused.json.error).toMatchObject({ code: 'capacity_reached', active_sessions: 4, max_sessions: 4 })
    await fetch(`${sessions}/${ids[0]}`, { method: 'DELETE' })
    expect((await postJson(sessions, {})).status).toBe(201)
    server.context.store.closeAll('client_closed')
  })
})

describe('bad requests get the documented error and the server keeps serving', () => {
  it('malformed JSON 400, wrong types and unknown fields 422 with paths, wrong media type 415, body too big 413', async () => {
    const malformed = await postJson(sessions, '{"seed": 1,')
    expect(malformed.status).toBe(400)
    expect(malformed.json.error.code).toBe('invalid_json')
    const wrongType = await postJson(sessions, { seed: 1.5 })
    expect(wrongType.status).toBe(422)
    expect(wrongType.json.error.issues[0].path).toBe('seed')
    const unknown = await postJson(`${sessions}/anything/step`, { tool: 'x', argument: {} })
    expect(unknown.status).toBe(422)
    expect(unknown.json.detail).toEqual([
      { type: 'extra_forbidden', loc: ['body', 'argument'], msg: 'Extra inputs are not permitted.' },
    ])
    const text = await fetch(sessions, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'seed=1' })
    expect(text.status).toBe(415)
    const big = await postJson(sessions, { seed: 1, options: { pad: 'x'.repeat(8000) } })
    expect(big.status).toBe(413)
    expect(big.json.error.code).toBe('payload_too_large')
    expect((await getJson(`${server.url}/health`)).json.status).toBe('healthy')
    expect((await postJson(sessions, {})).status).toBe(201)
    server.context.store.closeAll('client_closed')
  })

  it('an oversized WebSocket frame closes that connection with 1009; others carry on', async () => {
    const other = await TestSocket.open(wsUrl(server.url, '/envs/releaseops-v1/ws'))
    const big = await TestSocket.open(wsUrl(server.url, '/envs/releaseops-v1/ws'))
    big.socket.send(JSON.stringify({ type: 'reset', data: { options: { pad: 'x'.repeat(8000) } } }))
    expect(await big.closed).toBe(1009)
    expect((await other.send({ type: 'reset' })).type).toBe('observation')
    other.close()
  })
})

describe('bearer token', () => {
  it('with a token, session routes need it (401 with WWW-Authenticate); public routes stay open', async () => {
    const token = 'test-token-0123456789abcdef'
    const guarded = await startTestServer({ token })
    try {
      const denied = await postJson(`${guarded.url}/sessions`, {})
      expect(denied.status).toBe(401)
      expect(denied.headers.get('www-authenticate')).toContain('Bearer')
      expect((await postJson(`${guarded.url}/sessions`, {}, { authorization: 'Bearer wrong-token-0123456789' })).status).toBe(401)
      expect((await postJson(`${guarded.url}/sessions`, {}, { authorization: `Bearer ${token}` })).status).toBe(201)
      expect((await postJson(`${guarded.url}/reset`, {})).status).toBe(401)
      expect((await getJson(`${guarded.url}/health`)).status).toBe(200)
      expect((await getJson(`${guarded.url}/metadata`)).status).toBe(200)
      const refused = await new Promise<number>((resolve) => {
        const socket = new WebSocket(wsUrl(guarded.url))
        socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0))
        socket.on('open', () => resolve(101))
      })
      expect(refused).toBe(401)
      const admitted = await TestSocket.open(wsUrl(guarded.url), { authorization: `Bearer ${token}` })
      expect((await admitted.send({ type: 'reset' })).type).toBe('observation')
      admitted.close()
    } finally {
      await guarded.close()
    }
  })
})

function dataset() {
  return [
    {
      prompt: [],
      family: 'qa_undercalls_p1_checkout_bug',
      seed: 9102,
      difficulty: 'medium',
      archetype_mix: 'stale_policy_qa__deadline_rm',
      split: 'train',
    },
  ]
}
