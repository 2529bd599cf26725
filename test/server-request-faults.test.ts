/**
 * Server faults found by an outside attack pass (issue 28 items 2, 5, 6): a JSON-RPC batch of
 * `initialize` calls opens no session; a malformed `Host` is a coded 400 (never a 500, never same-origin
 * with a foreign `Origin`); an unknown split is a 404; errors raised before any route (Node's parser,
 * Fastify's router) carry the same `{error: {code, message}}` body as every other error.
 */
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Json, postJson, startTestServer, TestSocket, wsUrl } from './support/test-server.js'
import { type OperationsServer, startOperationsServer } from './train-support/operations-server.js'

let server: Awaited<ReturnType<typeof startTestServer>>
let operations: OperationsServer
let port: number

beforeAll(async () => {
  server = await startTestServer()
  port = server.port
  operations = await startOperationsServer()
})
afterAll(async () => {
  await server.close()
  await operations.dispose()
})

interface RawReply {
  status: number
  headers: string
  body: string
}

/** Writes `text` on a fresh TCP connection and reads the reply until the server closes it. */
function raw(text: string): Promise<RawReply> {
  return new Promise((settle, reject) => {
    const socket = connect(port, '127.0.0.1')
    let received = ''
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no reply to ${JSON.stringify(text.slice(0, 60))}: ${received}`))
    }, 5000)
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString()
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      clearTimeout(timer)
      const split = received.indexOf('\r\n\r\n')
      settle({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0),
        headers: received.slice(0, split),
        body: received.slice(split + 4),
      })
    })
    socket.write(text)
  })
}

const get = (path: string, headers: Record<string, string>) =>
  raw(
    `GET ${path} HTTP/1.1\r\n${Object.entries({ ...headers, connection: 'close' })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')}\r\n`,
  )

const codedBody = (reply: RawReply): Json => {
  expect(reply.headers.toLowerCase()).toContain('content-type: application/json')
  const body = JSON.parse(reply.body) as Json
  expect(body.error.code).toMatch(/^[a-z_]+$/)
  expect(typeof body.error.message).toBe('string')
  return body
}

describe('MCP: initialize in a batch', () => {
  it('a batch of 100 initialize calls is refused whole: no session opened, no Mcp-Session-Id', async () => {
    const before = server.context.store.size
    const batch = Array.from({ length: 100 }, (_, id) => ({
      jsonrpc: '2.0',
      id,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'batch', version: '1' } },
    }))
    for (let round = 0; round < 3; round++) {
      const reply = await postJson(`${server.url}/mcp`, batch)
      expect(reply.json.error).toMatchObject({ code: -32600, data: { code: 'initialize_in_batch' } })
      expect(reply.headers.get('mcp-session-id')).toBeNull()
    }
    const mixed = await postJson(`${server.url}/mcp`, [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ])
    expect(mixed.json.error.data.code).toBe('initialize_in_batch')
    expect(server.context.store.size).toBe(before)
    // initialize alone still opens exactly one session, returned in the header, and DELETE closes it.
    const single = await postJson(`${server.url}/mcp`, batch[0])
    const sessionId = single.headers.get('mcp-session-id')
    expect(sessionId).toBeTypeOf('string')
    expect(server.context.store.size).toBe(before + 1)
    const closed = await fetch(`${server.url}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': sessionId as string } })
    expect(closed.status).toBe(200)
    expect(server.context.store.size).toBe(before)
  })

  it('WS /mcp refuses the same batch', async () => {
    const socket = await TestSocket.open(wsUrl(server.url, '/mcp'))
    const reply = (await socket.send([
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} },
      { jsonrpc: '2.0', id: 2, method: 'initialize', params: {} },
    ])) as Json
    expect(reply.error.data.code).toBe('initialize_in_batch')
    socket.close()
  })
})

describe('malformed Host', () => {
  const malformed = ['127.0.0.1:99999', '[::1', 'localhost:abc', 'localhost:80@attacker.example', 'a b', '']

  it('is a 400 invalid_host with the coded body on every kind of route, never a 500', async () => {
    for (const host of malformed) {
      for (const path of ['/health', '/mcp', '/ws', '/api/envs/releaseops-v3/rows']) {
        const reply = await get(path, { host, origin: 'http://attacker.example' })
        expect(reply.status, `${path} Host ${host}`).toBe(400)
        expect(codedBody(reply).error.code).toBe('invalid_host')
      }
    }
    const noHost = await raw('GET /health HTTP/1.1\r\nConnection: close\r\n\r\n')
    expect(noHost.status).toBe(400)
    expect(codedBody(noHost).error.code).toBe('invalid_host')
  })

  it('POST /mcp with Host localhost:80@attacker.example and that Origin is no same-origin request', async () => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'
    const reply = await raw(
      `POST /mcp HTTP/1.1\r\nHost: localhost:80@attacker.example\r\nOrigin: http://attacker.example\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    )
    expect(reply.status).toBe(400)
    expect(codedBody(reply).error.code).toBe('invalid_host')
  })

  it('well-formed hosts keep working, and same-origin compares host and port exactly', async () => {
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'localhost', 'LOCALHOST.:80']) {
      expect((await get('/health', { host })).status, host).toBe(200)
    }
    const mcp = (host: string, origin: string) => get('/mcp', { host, origin })
    // GET /mcp answers 405 once the Host and Origin checks pass.
    expect((await mcp(`localhost:${port}`, `http://localhost:${port}`)).status).toBe(405)
    expect((await mcp(`[::1]:${port}`, `http://[::1]:${port}`)).status).toBe(405)
    expect((await mcp('localhost:80', 'http://localhost')).status).toBe(405)
    expect((await mcp(`localhost:${port}`, `http://localhost:${port + 1}`)).status).toBe(403)
    expect((await mcp(`localhost:${port}`, 'http://attacker.example')).status).toBe(403)
  })
})

describe('unknown split and errors before our handlers', () => {
  it('an unknown split is a 404 unknown_split on the dashboard rows route and on eval jobs', async () => {
    const rows = await fetch(`${server.url}/api/envs/releaseops-v3/rows?split=nope`)
    expect(rows.status).toBe(404)
    expect(((await rows.json()) as Json).error).toMatchObject({ code: 'unknown_split', name: 'nope' })
    const job = await operations.call('/api/eval', { method: 'POST', body: { split: 'nope', max_rows: 1 } })
    expect(job.status).toBe(404)
    expect(((await job.json()) as Json).error.code).toBe('unknown_split')
  })

  it('bad JSON 400, bad URL 400, a long path parameter 414, big headers 431, a malformed request 400: all coded', async () => {
    const cases: [string, number, string][] = [
      [
        'POST /reset HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 3\r\nConnection: close\r\n\r\n{x}',
        400,
        'invalid_json',
      ],
      ['GET /sessions/%zz/state HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n', 400, 'bad_url'],
      [`GET /sessions/${'a'.repeat(500)}/state HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`, 414, 'uri_too_long'],
      [`GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`, 431, 'headers_too_large'],
      [`GET /health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers_too_large'],
      ['HELLO\r\n\r\n', 400, 'malformed_request'],
      ['GET /health HTTP/1.1\r\nHost: localhost\r\nContent-Length: x\r\n\r\n', 400, 'malformed_request'],
    ]
    for (const [request, status, code] of cases) {
      const reply = await raw(request)
      expect(reply.status, request.slice(0, 40)).toBe(status)
      expect(codedBody(reply).error.code, request.slice(0, 40)).toBe(code)
    }
    expect((await fetch(`${server.url}/health`)).status).toBe(200)
  })
})
