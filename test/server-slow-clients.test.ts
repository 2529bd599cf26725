/**
 * Slow and greedy clients (issue 35 items 1–2): every phase of a request has a deadline (headers, body,
 * idle), a body that trickles is cut however it trickles, and one client's share of the connections and
 * of the sessions is capped with a coded 429 that names the limit, while the server keeps answering
 * everyone else. Clients come from distinct loopback addresses (127.0.0.x), so each is its own client.
 * How fast `/health` answers under these attacks is measured by bench/peers/openenv-slow-clients.ts, not here.
 */
import { request } from 'node:http'
import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { RunningServer } from '../src/server/start-server.js'
import { type JsonRecord, startTestServer, wsUrl } from './support/test-server.js'

let server: RunningServer
let port: number
const limits = {
  headerTimeoutS: 3,
  bodyTimeoutS: 3,
  idleTimeoutS: 3,
  maxConnectionsPerClient: 20,
  maxSessions: 64,
  maxSessionsPerClient: 10,
}

beforeAll(async () => {
  server = await startTestServer(limits)
  port = server.port
})
afterAll(async () => {
  await server.close()
})

/** What a raw connection got back before it closed: the status line's code and the error code. */
interface Outcome {
  status: number
  code: string | undefined
  body: JsonRecord | undefined
}

/** A raw connection from `from` that runs `send` and resolves with what came back once it closes. */
function rawClient(from: string, send: (socket: Socket) => void): { socket: Socket; outcome: Promise<Outcome> } {
  const socket = connect({ port, host: '127.0.0.1', localAddress: from })
  socket.on('error', () => {})
  const outcome = new Promise<Outcome>((resolve) => {
    let text = ''
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString()
    })
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)
      const json = text.includes('\r\n\r\n') ? text.slice(text.indexOf('\r\n\r\n') + 4) : ''
      let body: JsonRecord | undefined
      try {
        body = json ? JSON.parse(json) : undefined
      } catch {
        body = undefined
      }
      resolve({ status, code: body?.error?.code, body })
    })
  })
  socket.on('connect', () => send(socket))
  return { socket, outcome }
}

/** Headers sent one line at a time, forever (until the server cuts the connection). */
const slowHeaders = (socket: Socket) => {
  socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n')
  const timer = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 200)
  socket.once('close', () => clearInterval(timer))
}

/** A body declared 100 kB, sent a byte at a time: it keeps progressing, it never ends. */
const slowBody = (socket: Socket) => {
  socket.write('POST /sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{')
  const timer = setInterval(() => socket.writable && socket.write(' '), 200)
  socket.once('close', () => clearInterval(timer))
}

/** An HTTP request from a chosen source address. */
function call(options: { from: string; method?: string; path: string; body?: unknown }) {
  return new Promise<{ status: number; json: JsonRecord }>((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body)
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        path: options.path,
        method: options.method ?? 'GET',
        localAddress: options.from,
        agent: false,
        headers: payload ? { 'content-type': 'application/json' } : {},
      },
      (reply) => {
        let text = ''
        reply.on('data', (chunk: Buffer) => {
          text += chunk.toString()
        })
        reply.on('end', () => resolve({ status: reply.statusCode ?? 0, json: text ? JSON.parse(text) : {} }))
      },
    )
    outgoing.on('error', reject)
    outgoing.end(payload)
  })
}

const openConnections = () => server.context.connections

describe('deadlines for every phase of a request', () => {
  it('a body that trickles a byte at a time is cut (408 body_timeout); dribbled headers too (408 header_timeout)', async () => {
    const body = rawClient('127.0.0.2', slowBody)
    const headers = rawClient('127.0.0.2', slowHeaders)
    expect(await body.outcome).toMatchObject({ status: 408, code: 'body_timeout' })
    expect((await body.outcome).body?.error.message).toContain('--body-timeout')
    expect((await body.outcome).body?.error.declared_bytes).toBe(100_000)
    expect(await headers.outcome).toMatchObject({ status: 408, code: 'header_timeout' })
    expect((await headers.outcome).body?.error.message).toContain('--header-timeout')
  })

  it('a connection that sends nothing is cut at the header deadline; a kept-alive idle one is closed', async () => {
    const silent = rawClient('127.0.0.3', () => {})
    expect(await silent.outcome).toMatchObject({ status: 408, code: 'header_timeout' })
    const idle = rawClient('127.0.0.3', (socket) => socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'))
    const answered = await idle.outcome
    expect(answered.status).toBe(200)
  })

  it('hundreds of slow clients: /health answers all along, and every slow one is cut with its code', async () => {
    const before = { ...openConnections().cuts }
    const slow = Array.from({ length: 300 }, (_, index) =>
      rawClient(`127.0.1.${10 + (index % 30)}`, index % 2 === 0 ? slowHeaders : slowBody),
    )
    await Promise.all(slow.map(({ socket }) => new Promise((resolve) => socket.once('connect', resolve))))
    const healthy: number[] = []
    let stillOpen = 0
    for (let probe = 0; probe < 10; probe++) {
      const reply = await call({ from: '127.0.0.1', path: '/health' })
      healthy.push(reply.status)
      stillOpen = Math.max(stillOpen, slow.filter(({ socket }) => !socket.destroyed).length)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(healthy).toEqual(Array(10).fill(200))
    // The probes ran while the slow clients held their connections.
    expect(stillOpen).toBe(300)
    const outcomes = await Promise.all(slow.map(({ outcome }) => outcome))
    const codes = outcomes.map((outcome, index) => `${outcome.status} ${outcome.code} ${index % 2 === 0 ? 'h' : 'b'}`)
    expect(codes.filter((code) => code === '408 header_timeout h')).toHaveLength(150)
    expect(codes.filter((code) => code === '408 body_timeout b')).toHaveLength(150)
    expect(openConnections().cuts.header_timeout - before.header_timeout).toBeGreaterThanOrEqual(150)
    expect(openConnections().cuts.body_timeout - before.body_timeout).toBe(150)
    expect((await call({ from: '127.0.0.1', path: '/health' })).status).toBe(200)
  })
})

describe("each client's share", () => {
  it('over its connection share, a client gets 429 too_many_connections naming the limit; others are served', async () => {
    const greedy = '127.0.2.1'
    const held = Array.from({ length: limits.maxConnectionsPerClient }, () => rawClient(greedy, slowHeaders))
    await Promise.all(held.map(({ socket }) => new Promise((resolve) => socket.once('connect', resolve))))
    await expect.poll(() => openConnections().openBy(greedy)).toBe(limits.maxConnectionsPerClient)
    const over = await call({ from: greedy, path: '/health' })
    expect(over.status).toBe(429)
    expect(over.json.error).toMatchObject({
      code: 'too_many_connections',
      limit: 'max_connections_per_client',
      max_connections_per_client: limits.maxConnectionsPerClient,
    })
    expect(over.json.error.message).toContain('--max-connections-per-client')
    expect((await call({ from: '127.0.2.2', path: '/health' })).status).toBe(200)
    for (const { socket } of held) socket.destroy()
    await expect.poll(() => openConnections().openBy(greedy)).toBe(0)
    expect((await call({ from: greedy, path: '/health' })).status).toBe(200)
  })

  it('one client cannot hold every session: over its share, 429 too_many_sessions on every transport', async () => {
    const greedy = '127.0.3.1'
    const created: string[] = []
    for (let index = 0; index < limits.maxSessionsPerClient; index++) {
      const reply = await call({ from: greedy, method: 'POST', path: '/sessions', body: {} })
      expect(reply.status).toBe(201)
      created.push(reply.json.session_id)
    }
    const http = await call({ from: greedy, method: 'POST', path: '/sessions', body: {} })
    expect(http.status).toBe(429)
    expect(http.json.error).toMatchObject({
      code: 'too_many_sessions',
      limit: 'max_sessions_per_client',
      client_sessions: limits.maxSessionsPerClient,
      max_sessions_per_client: limits.maxSessionsPerClient,
    })
    expect(http.json.error.message).toContain('--max-sessions-per-client')
    const mcp = await call({
      from: greedy,
      method: 'POST',
      path: '/mcp',
      body: { jsonrpc: '2.0', id: 1, method: 'openenv/session/create', params: {} },
    })
    expect(mcp.json.error).toMatchObject({ code: -32000, data: { code: 'too_many_sessions', limit: 'max_sessions_per_client' } })
    const refusedSocket = await new Promise<{ frame: JsonRecord; close: number }>((resolve) => {
      const socket = new WebSocket(wsUrl(server.url), { localAddress: greedy })
      let frame: JsonRecord = {}
      socket.on('message', (data) => {
        frame = JSON.parse(data.toString())
      })
      socket.on('close', (close) => resolve({ frame, close }))
    })
    expect(refusedSocket.close).toBe(1013)
    expect(refusedSocket.frame.data).toMatchObject({ code: 'CAPACITY_REACHED', error_code: 'too_many_sessions' })
    // Another client still gets sessions; the greedy one gets its slot back when it closes one.
    expect((await call({ from: '127.0.3.2', method: 'POST', path: '/sessions', body: {} })).status).toBe(201)
    expect((await call({ from: greedy, method: 'DELETE', path: `/sessions/${created[0]}` })).status).toBe(200)
    expect((await call({ from: greedy, method: 'POST', path: '/sessions', body: {} })).status).toBe(201)
    server.context.store.closeAll('client_closed')
  })
})
