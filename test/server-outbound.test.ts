/**
 * Outbound requests by policy (issue 35 item 4): the endpoints a request names (`/api/eval`'s
 * `base_url`, its original alias, `/train/start`'s `vllm_server_base_url`) pass the operator's policy in
 * every spelling an address has; a refused one is a coded 403 before anything is sent (a stand-in
 * internal service on loopback counts what reaches it); credentials in a URL are sent, never recorded;
 * a reply that is not an API's never lands in outputs.
 */
import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type OperationsServer, startOperationsServer, waitFor } from './train-support/operations-server.js'

/** A stand-in internal service: it answers with a secret page and counts every request that reaches it. */
let internal: Server
let port: number
const hits: { url: string; authorization: string | undefined }[] = []
let answer: (response: ServerResponse) => void = (response) => {
  response.writeHead(200, { 'content-type': 'text/html' })
  response.end('<html>internal admin: db_password=hunter2</html>')
}

let open: OperationsServer
let strict: OperationsServer

beforeAll(async () => {
  internal = createServer((request: IncomingMessage, response) => {
    hits.push({ url: request.url ?? '', authorization: request.headers.authorization })
    request.resume()
    answer(response)
  })
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve))
  port = (internal.address() as AddressInfo).port
  open = await startOperationsServer()
  strict = await startOperationsServer({ server: { loopbackEndpoints: false, allowEndpoints: ['10.9.8.7:8000'] } })
})
afterAll(async () => {
  await open.dispose()
  await strict.dispose()
  internal.close()
})

const evalBody = (baseUrl: string) => ({ split: 'eval', max_rows: 1, model: { name: 'm', base_url: baseUrl, concurrency: 1 } })

async function finishedJob(server: OperationsServer): Promise<{ state: string; episodes_path: string; summary_path: string }> {
  let status = { state: 'running', episodes_path: '', summary_path: '' }
  await waitFor(async () => {
    status = (await (await server.call('/api/eval')).json()) as typeof status
    return status.state !== 'running'
  }, 60_000)
  return status
}

/** Every spelling of 127.0.0.1 the attack used, on the stand-in's port. */
const loopbackForms = (target: number) => [
  `http://[::1]:${target}/v1`,
  `http://[::ffff:127.0.0.1]:${target}/v1`,
  `http://0x7f.0.0.1:${target}/v1`,
  `http://2130706433:${target}/v1`,
  `http://127.1:${target}/v1`,
  `http://localhost:${target}/v1`,
]

describe('/api/eval base_url', () => {
  it('with loopback off, every spelling of a loopback address is refused (403) and nothing reaches it', async () => {
    hits.length = 0
    for (const url of loopbackForms(port)) {
      const reply = await strict.call('/api/eval', { method: 'POST', body: evalBody(url) })
      expect(reply.status, url).toBe(403)
      expect(await reply.json(), url).toMatchObject({
        error: { code: 'endpoint_not_allowed', path: 'model.base_url', address_class: 'loopback' },
      })
    }
    const alias = await strict.call(`/api/run-eval?model_id=m&base_url=${encodeURIComponent(`http://127.1:${port}/v1`)}`, {
      method: 'POST',
    })
    expect(alias.status).toBe(403)
    expect(hits).toEqual([])
  })

  it('metadata and private addresses are refused by default, file: and gopher: as schemes; a listed one is allowed', async () => {
    for (const url of [
      'http://169.254.169.254/v1',
      'http://[::ffff:169.254.169.254]/v1',
      'http://2852039166/v1',
      'http://10.0.0.5:8000/v1',
    ]) {
      const reply = await open.call('/api/eval', { method: 'POST', body: evalBody(url) })
      expect(reply.status, url).toBe(403)
      expect(((await reply.json()) as { error: { code: string } }).error.code).toBe('endpoint_not_allowed')
    }
    for (const url of ['file:///etc/passwd', 'gopher://127.0.0.1:70/']) {
      expect((await open.call('/api/eval', { method: 'POST', body: evalBody(url) })).status, url).toBe(422)
    }
    const listed = await strict.call('/api/eval', { method: 'POST', body: evalBody('http://10.9.8.7:8000/v1') })
    expect(listed.status).toBe(202)
    await finishedJob(strict)
  })

  /** What a finished job left: its episodes, summary and status, as one text. */
  async function recorded(status: { episodes_path: string; summary_path: string }): Promise<string> {
    const files = [status.episodes_path, status.summary_path].map((path) => {
      try {
        return readFileSync(join(open.outputs, path), 'utf8')
      } catch {
        return ''
      }
    })
    return [...files, JSON.stringify(await (await open.call('/api/eval')).json())].join('\n')
  }

  it('credentials in the URL are sent as Basic authorization and recorded nowhere', async () => {
    hits.length = 0
    answer = (response) => {
      response.writeHead(401, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ error: { message: 'bad key' } }))
    }
    const sent = await open.call('/api/eval', {
      method: 'POST',
      body: evalBody(`http://runner:s3cr3t-pass@127.0.0.1:${port}/v1`),
    })
    expect(sent.status).toBe(202)
    const first = await recorded(await finishedJob(open))
    expect(hits[0]?.authorization).toBe(`Basic ${Buffer.from('runner:s3cr3t-pass').toString('base64')}`)
    expect(first).toContain('bad key')
    expect(first).not.toContain('s3cr3t-pass')
    // Unreachable: the fault names the endpoint, redacted.
    const unreachable = await open.call('/api/eval', {
      method: 'POST',
      body: evalBody('http://runner:s3cr3t-pass@127.0.0.1:1/v1'),
    })
    expect(unreachable.status).toBe(202)
    const second = await recorded(await finishedJob(open))
    expect(second).toContain('http://***@127.0.0.1:1/v1')
    expect(second).not.toContain('s3cr3t-pass')
  })

  it('an internal page the endpoint answers never lands in outputs: its status and content type do', async () => {
    answer = (response) => {
      response.writeHead(404, { 'content-type': 'text/html' })
      response.end('<html>internal admin: db_password=hunter2</html>')
    }
    const reply = await open.call('/api/eval', { method: 'POST', body: evalBody(`http://127.0.0.1:${port}/v1`) })
    expect(reply.status).toBe(202)
    const status = await finishedJob(open)
    const job = JSON.stringify(await (await open.call('/api/eval')).json())
    let episodes = ''
    try {
      episodes = readFileSync(join(open.outputs, status.episodes_path), 'utf8')
    } catch {
      episodes = ''
    }
    expect(`${episodes}\n${job}`).toContain('HTTP 404')
    expect(`${episodes}\n${job}`).toContain('text/html')
    expect(`${episodes}\n${job}`).not.toContain('hunter2')
  })
})

describe('/train/start vllm_server_base_url', () => {
  const start = (server: OperationsServer, url: string) =>
    server.call('/train/start', { method: 'POST', body: { preset: 'smoke', use_vllm: 'server', vllm_server_base_url: url } })

  it('is checked like any endpoint: refused addresses, schemes and credentials are coded refusals', async () => {
    const refusals: [OperationsServer, string, number, string][] = [
      [open, 'http://169.254.169.254:8000', 403, 'endpoint_not_allowed'],
      [open, 'http://0xa9fea9fe:8000', 403, 'endpoint_not_allowed'],
      [strict, 'http://127.1:8000', 403, 'endpoint_not_allowed'],
      [strict, 'http://[::ffff:127.0.0.1]:8000', 403, 'endpoint_not_allowed'],
      [open, 'file:///etc/passwd', 422, 'endpoint_scheme_refused'],
      [open, 'http://user:pw@127.0.0.1:8000', 422, 'endpoint_credentials_refused'],
    ]
    for (const [server, url, status, code] of refusals) {
      const reply = await start(server, url)
      expect(reply.status, url).toBe(status)
      const body = (await reply.json()) as { error: { code: string; path: string; message: string } }
      expect(body.error, url).toMatchObject({ code, path: 'vllm_server_base_url' })
      expect(body.error.message).not.toContain(':pw@')
    }
  })

  it('an allowed http URL reaches the trainer pinned to the address that was checked', async () => {
    const reply = await start(open, 'http://localhost:8001')
    expect(reply.status).toBe(202)
    const status = (await reply.json()) as { command: string[] }
    const flag = status.command.indexOf('--vllm-server-base-url')
    expect(status.command[flag + 1]).toMatch(/^http:\/\/(?:127\.0\.0\.1|\[::1\]):8001$/)
    await open.call('/train/stop', { method: 'POST' })
  })
})
