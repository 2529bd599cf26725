/**
 * Model endpoints are foreign servers (issue 28 item 3): a reply over the cap is cut there and fails
 * with `endpoint_reply_too_large` (the eval job fails with that code), a redirect is not followed, and
 * of an error reply only an API error's message is recorded, cut to 200 characters (episodes.jsonl); any
 * other body is described by its status and content type (decision 0067). The endpoints here are real
 * HTTP servers that misbehave on purpose.
 */
import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EndpointClient } from '../src/agent/endpoint-client.js'
import { isEndpointError } from '../src/agent/endpoint-error.js'
import { type OperationsServer, startOperationsServer, waitFor } from './train-support/operations-server.js'

interface Endpoint {
  url: string
  hits: string[]
  /** Bytes the endpoint managed to write before its reader went away. */
  written: () => number
  close: () => Promise<void>
}

async function endpoint(handler: (request: IncomingMessage, response: ServerResponse, count: (n: number) => void) => void) {
  const hits: string[] = []
  let written = 0
  const server: Server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`)
    request.resume()
    handler(request, response, (bytes) => {
      written += bytes
    })
  })
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    hits,
    written: () => written,
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections()
        server.close(() => closed())
      }),
  } satisfies Endpoint
}

/** Streams `total` bytes of a JSON string body in 64 KiB chunks, honouring back-pressure; stops when the reader leaves. */
function huge(total: number, options: { declare?: boolean; sse?: boolean } = {}) {
  return (_request: IncomingMessage, response: ServerResponse, count: (n: number) => void) => {
    response.writeHead(200, {
      'content-type': options.sse ? 'text/event-stream' : 'application/json',
      ...(options.declare ? { 'content-length': String(total) } : {}),
    })
    const chunk = Buffer.alloc(64 * 1024, 'a')
    let sent = 0
    const pump = () => {
      while (sent < total && !response.destroyed) {
        sent += chunk.length
        count(chunk.length)
        if (!response.write(chunk)) return void response.once('drain', pump)
      }
      response.end()
    }
    response.on('close', () => {
      sent = total
    })
    if (options.sse) response.write('data: {"choices":[{"index":0,"delta":{"content":"')
    pump()
  }
}

const endpoints: Endpoint[] = []
let operations: OperationsServer
beforeAll(async () => {
  operations = await startOperationsServer({ server: { maxModelReplyBytes: 1024 * 1024 } })
})
afterAll(async () => {
  await operations.dispose()
  for (const item of endpoints) await item.close()
})
const started = async (handler: Parameters<typeof endpoint>[0]) => {
  const made = await endpoint(handler)
  endpoints.push(made)
  return made
}
const chat = (client: EndpointClient, stream = false) =>
  client.post({ path: '/chat/completions', body: { model: 'm', ...(stream ? { stream: true } : {}) }, kind: 'chat' }).then(
    () => undefined,
    (error: unknown) => error,
  )

describe('reply size cap', () => {
  it('a 300 MB reply is cut at the 16 MiB default: a fatal endpoint_reply_too_large after one attempt', async () => {
    const target = await started(huge(300 * 1024 * 1024))
    const error = await chat(new EndpointClient({ baseUrl: target.url }))
    expect(isEndpointError(error) && [error.code, error.fatal, error.attempts]).toEqual(['endpoint_reply_too_large', true, 1])
    // The reader stopped at the cap: what was sent is the cap plus what the socket buffers held, not 300 MB.
    await new Promise((settle) => setTimeout(settle, 200))
    expect(target.written()).toBeLessThan(64 * 1024 * 1024)
    expect(target.hits).toHaveLength(1)
  })

  it('a declared Content-Length over the cap fails before the body is read; streams are capped too', async () => {
    const declared = await started(huge(300 * 1024 * 1024, { declare: true }))
    const error = await chat(new EndpointClient({ baseUrl: declared.url, maxReplyBytes: 1024 * 1024 }))
    expect(isEndpointError(error) && error.code).toBe('endpoint_reply_too_large')
    expect((error as Error).message).toContain('Content-Length 314572800')
    const sse = await started(huge(8 * 1024 * 1024, { sse: true }))
    const streamed = await chat(new EndpointClient({ baseUrl: sse.url, maxReplyBytes: 1024 * 1024 }), true)
    expect(isEndpointError(streamed) && [streamed.code, streamed.attempts]).toEqual(['endpoint_reply_too_large', 1])
  })

  it('an eval job whose endpoint answers over the server cap (--max-model-reply) fails with the code', async () => {
    const target = await started(huge(4 * 1024 * 1024))
    const reply = await operations.call('/api/eval', {
      method: 'POST',
      body: { split: 'eval', max_rows: 2, model: { name: 'm', base_url: target.url, concurrency: 2 } },
    })
    expect(reply.status).toBe(202)
    let status: { state: string; error: { code: string } | null } = { state: 'running', error: null }
    await waitFor(async () => {
      status = (await (await operations.call('/api/eval')).json()) as typeof status
      return status.state !== 'running'
    })
    expect(status.state).toBe('failed')
    expect(status.error?.code).toBe('endpoint_reply_too_large')
  })
})

describe('redirects and error bodies', () => {
  it('a 307 to another port is not followed: endpoint_redirect, and the other server sees nothing', async () => {
    const elsewhere = await started((_request, response) => response.end('{"choices":[]}'))
    const redirecting = await started((_request, response) => {
      response.writeHead(307, { location: `${elsewhere.url}/chat/completions` })
      response.end()
    })
    const error = await chat(new EndpointClient({ baseUrl: redirecting.url }))
    expect(isEndpointError(error) && [error.code, error.fatal, error.status]).toEqual(['endpoint_redirect', true, 307])
    const models = await new EndpointClient({ baseUrl: redirecting.url }).models().catch((caught: unknown) => caught)
    expect(isEndpointError(models) && models.code).toBe('endpoint_redirect')
    expect(elsewhere.hits).toEqual([])
  })

  /** The faults an eval job against an endpoint answering `respond` wrote to episodes.jsonl. */
  async function recordedFaults(respond: (response: ServerResponse) => void): Promise<string> {
    const failing = await started((_request, response) => respond(response))
    const reply = await operations.call('/api/eval', {
      method: 'POST',
      body: { split: 'eval', max_rows: 1, model: { name: 'm', base_url: failing.url, concurrency: 1 } },
    })
    expect(reply.status).toBe(202)
    let status: { state: string; episodes_path: string } = { state: 'running', episodes_path: '' }
    await waitFor(async () => {
      status = (await (await operations.call('/api/eval')).json()) as typeof status
      return status.state !== 'running'
    }, 60_000)
    const lines = readFileSync(join(operations.outputs, status.episodes_path), 'utf8').trim().split('\n')
    return lines.map((line) => JSON.stringify(JSON.parse(line).fault ?? null)).join('\n')
  }

  it('an API error message of 350 characters lands in episodes.jsonl cut to 200', async () => {
    const message = `${'E'.repeat(199)}!${'x'.repeat(150)}`
    const recorded = await recordedFaults((response) => {
      response.writeHead(503, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ error: { message, type: 'server_error' } }))
    })
    expect(recorded).toContain(`${'E'.repeat(199)}!`)
    expect(recorded).not.toContain('!x')
  }, 90_000)

  it('a reply that is not an API error is never written: its status and content type are', async () => {
    const recorded = await recordedFaults((response) => {
      response.writeHead(503, { 'content-type': 'text/html' })
      response.end('<html>internal dashboard: db_password=hunter2</html>')
    })
    expect(recorded).toContain('HTTP 503')
    expect(recorded).toContain('text/html')
    expect(recorded).not.toContain('hunter2')
    expect(recorded).not.toContain('internal dashboard')
  }, 90_000)
})
