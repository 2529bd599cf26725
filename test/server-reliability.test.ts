/**
 * Reliability of a real `releaseops serve` process: session churn without leaks (count and RSS back to
 * baseline), half-open connections and idle sessions reaped, isolation of concurrent sessions, and
 * malformed input of every kind answered while the server keeps serving.
 */
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectEnv } from '../src/client/websocket-env.js'
import type { AnyEnv, ResetParams } from '../src/core/env/env-api.js'
import { envRegistry, makeEnv, policyRegistry } from '../src/envs/index.js'
import {
  collectGarbage,
  getJson,
  inspectorUrl,
  type JsonRecord,
  postJson,
  rssMiB,
  type ServerProcess,
  spawnServer,
  TestSocket,
  wsUrl,
} from './support/test-server.js'

const envId = 'releaseops-v1'
const dataset = envRegistry.get(envId).dataset!
let server: ServerProcess
let base: string

beforeAll(async () => {
  // The inspector (loopback) lets the churn test force a full GC in the server before measuring.
  server = await spawnServer(
    ['--env', envId, '--max-sessions', '64', '--ping-interval', '0.2', '--ping-timeout', '2', '--session-timeout', '30'],
    {
      nodeArgs: ['--inspect=127.0.0.1:0'],
    },
  )
  base = `${server.url}/envs/${envId}`
})
afterAll(async () => {
  await server.stop()
})

const health = async () => (await getJson(`${base}/health`)).json

/** One short session of a random kind: WebSocket, HTTP session or MCP session. */
async function churnOne(index: number): Promise<void> {
  const kind = index % 3
  if (kind === 0) {
    const socket = await TestSocket.open(wsUrl(base))
    await socket.send({ type: 'reset', data: { seed: index } })
    await socket.send({ type: 'step', data: { tool: 'hold_release', arguments: { reason_code: 'awaiting_fix' } } })
    if (index % 2 === 0) socket.socket.send(JSON.stringify({ type: 'close' }))
    else socket.socket.terminate()
    await socket.closed
  } else if (kind === 1) {
    const created = await postJson(`${base}/sessions`, { seed: index })
    await postJson(`${base}/sessions/${created.json.env_id}/step`, { tool: 'inspect_ticket', arguments: { ticket_id: 't' } })
    await fetch(`${base}/sessions/${created.json.env_id}`, { method: 'DELETE' })
  } else {
    const created = await postJson(`${base}/mcp`, {
      jsonrpc: '2.0',
      id: 1,
      method: 'openenv/session/create',
      params: { seed: index },
    })
    const sessionId = created.json.result.session_id
    await postJson(`${base}/mcp`, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'hold_release', arguments: { reason_code: 'risk_too_high' }, session_id: sessionId },
    })
    await postJson(`${base}/mcp`, { jsonrpc: '2.0', id: 3, method: 'openenv/session/close', params: { session_id: sessionId } })
  }
}

async function churn(from: number, count: number, concurrency: number): Promise<void> {
  let next = from
  const worker = async () => {
    while (next < from + count) await churnOne(next++)
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
}

describe('churn', () => {
  it('2,000 sessions opened and closed: the count returns to 0, RSS and heap to their baseline', async () => {
    const inspector = inspectorUrl(server.output()) as string
    await churn(0, 600, 32)
    await expect.poll(async () => (await health()).active_sessions, { timeout: 5000 }).toBe(0)
    const baselineHeap = (await collectGarbage(inspector)).heapUsedMiB
    const baselineRss = rssMiB(server.pid)
    const closedBefore = Object.values((await health()).sessions_closed as Record<string, number>).reduce((a, b) => a + b, 0)
    await churn(1000, 2000, 32)
    await expect.poll(async () => (await health()).active_sessions, { timeout: 5000 }).toBe(0)
    const after = await health()
    const closedAfter = Object.values(after.sessions_closed as Record<string, number>).reduce((a, b) => a + b, 0)
    expect(closedAfter - closedBefore).toBe(2000)
    expect(after.websockets).toBe(0)
    const heap = (await collectGarbage(inspector)).heapUsedMiB
    // Keeping each closed session alive (env included) costs ~6 KiB: 2,000 of them ≈ 12 MiB of heap.
    expect(heap - baselineHeap).toBeLessThan(3)
    expect(rssMiB(server.pid) - baselineRss).toBeLessThan(12)
  })
})

describe('reaping', () => {
  it('half-open connections (no pong, no FIN) are dropped and their slots freed', async () => {
    const before = await health()
    const sockets = await Promise.all(Array.from({ length: 5 }, () => halfOpenSocket(base)))
    await expect.poll(async () => (await health()).active_sessions, { timeout: 3000 }).toBe(before.active_sessions + 5)
    await expect.poll(async () => (await health()).active_sessions, { timeout: 10_000 }).toBe(before.active_sessions)
    const after = await health()
    expect(after.silent_sockets_dropped - before.silent_sockets_dropped).toBe(5)
    expect(after.sessions_closed.connection_lost - before.sessions_closed.connection_lost).toBe(5)
    for (const socket of sockets) socket.destroy()
  })

  it('a quiet but live client (answering pings) outlives the ping timeout', async () => {
    const socket = await TestSocket.open(wsUrl(base))
    await socket.send({ type: 'reset' })
    await new Promise((resolve) => setTimeout(resolve, 4500))
    expect((await socket.send({ type: 'state' })).type).toBe('state')
    socket.close()
  })

  it('idle sessions are reaped after --session-timeout: HTTP sessions 404, WebSockets get SESSION_ERROR and 4001', async () => {
    const quick = await spawnServer(['--env', envId, '--session-timeout', '0.5'])
    try {
      const created = await postJson(`${quick.url}/sessions`, {})
      const socket = await TestSocket.open(wsUrl(quick.url))
      await socket.send({ type: 'reset' })
      const farewell = JSON.parse(await socket.next(5000))
      expect(farewell).toMatchObject({ type: 'error', data: { code: 'SESSION_ERROR', reason: 'idle_timeout' } })
      expect(await socket.closed).toBe(4001)
      const gone = await postJson(`${quick.url}/sessions/${created.json.env_id}/step`, { tool: 'hold_release' })
      expect(gone.status).toBe(404)
      const stats = (await getJson(`${quick.url}/health`)).json
      expect(stats.sessions_closed.idle_timeout).toBe(2)
      expect(stats.active_sessions).toBe(0)
    } finally {
      await quick.stop()
    }
  })
})

/** Completes the WebSocket handshake, then never reads again: pings go unanswered. */
function halfOpenSocket(baseUrl: string): Promise<import('node:net').Socket> {
  const url = new URL(`${baseUrl}/ws`)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(
        `GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      )
    })
    socket.once('data', (chunk) => {
      if (!chunk.toString().startsWith('HTTP/1.1 101')) reject(new Error(chunk.toString()))
      socket.pause()
      resolve(socket)
    })
    socket.on('error', () => {})
  })
}

describe('isolation', () => {
  it('48 concurrent sessions with interleaved steps play exactly their in-process episodes', async () => {
    const rows = dataset.rows('eval').slice(0, 48)
    const policies = policyRegistry.names(envId)
    const play = async (env: AnyEnv, index: number, jitter: boolean) => {
      const reset: ResetParams = dataset.toResetParams(rows[index]!)
      const policy = policyRegistry.create(envId, policies[index % policies.length]!)
      const start = await env.reset(reset)
      const lines = [JSON.stringify(start)]
      const episode = policy.start({
        observation: start.observation as never,
        info: start.info,
        spec: env.spec,
        env: makeEnv(envId) as never,
      })
      let observation = start.observation
      for (let call = episode.act(observation as never); call !== null; call = episode.act(observation as never)) {
        if (jitter) await new Promise((resolve) => setTimeout(resolve, Math.random() * 3))
        const result = await env.step(call)
        lines.push(JSON.stringify(result), await env.render(result.observation))
        observation = result.observation
        if (result.terminated || result.truncated) break
      }
      return lines
    }
    const clients = await Promise.all(rows.map(() => connectEnv({ baseUrl: base })))
    const remote = await Promise.all(clients.map((client, index) => play(client, index, true)))
    for (const [index] of rows.entries()) expect(remote[index]).toEqual(await play(makeEnv(envId), index, false))
    await Promise.all(clients.map((client) => client.close()))
  })
})

describe('malformed input', () => {
  it('every kind of bad input gets its documented error, and the server keeps serving', async () => {
    const socket = await TestSocket.open(wsUrl(base))
    socket.socket.send(Buffer.from([0xff, 0xfe, 0x00, 0x81]), { binary: true })
    expect(JSON.parse(await socket.next())).toMatchObject({ type: 'error', data: { code: 'INVALID_JSON' } })
    socket.socket.send(`${'['.repeat(200_000)}${']'.repeat(200_000)}`.slice(0, 60_000))
    expect(JSON.parse(await socket.next())).toMatchObject({ data: { code: 'INVALID_JSON' } })
    expect(await socket.send({ type: 'step', data: { tool: 'hold_release' } })).toMatchObject({
      data: { error_code: 'reset_needed' },
    })
    expect(await socket.send({ type: 'step', data: 'hold_release' })).toMatchObject({ data: { code: 'VALIDATION_ERROR' } })
    expect(await socket.send({ type: 'reset', data: { seed: 1 }, request_id: { nested: true } })).toMatchObject({
      data: { code: 'VALIDATION_ERROR' },
    })
    await socket.send({ type: 'reset' })
    const unknownTool = (await socket.send({ type: 'step', data: { tool: { not: 'a name' }, arguments: [1] } }))
      .data as JsonRecord
    expect(unknownTool).toMatchObject({ reward: -0.25, observation: { error: { code: 'unknown_tool' } } })
    socket.close()

    expect((await postJson(`${base}/step`, '{"action": ')).status).toBe(400)
    expect((await postJson(`${base}/step`, { action: 'hold_release' })).status).toBe(422)
    expect((await postJson(`${base}/sessions`, { seed: 'one' })).status).toBe(422)
    expect((await postJson(`${base}/sessions`, { seed: 1, options: { family: 'nope' } })).json.error.code).toBe(
      'invalid_reset_options',
    )
    expect((await postJson(`${server.url}/envs/releaseops-v99/sessions`, {})).json.error.code).toBe('unknown_env')
    expect((await postJson(`${base}/mcp`, '{"jsonrpc": "2.0", ')).json.error.code).toBe(-32700)
    expect((await postJson(`${base}/mcp`, { jsonrpc: '2.0', id: 1, method: 'nope' })).json.error.code).toBe(-32601)
    expect((await postJson(`${base}/mcp`, [])).json.error.code).toBe(-32600)

    const after = await health()
    expect(after.status).toBe('healthy')
    const env = await connectEnv({ baseUrl: base })
    const local = makeEnv(envId)
    expect(JSON.stringify(await env.reset({ seed: 77 }))).toBe(JSON.stringify(local.reset({ seed: 77 })))
    await env.close()
  })
})
