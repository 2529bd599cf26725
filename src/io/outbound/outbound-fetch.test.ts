import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOutboundFetch } from './outbound-fetch.js'
import { OutboundPolicy } from './outbound-policy.js'

interface Hit {
  method: string
  url: string
  host: string | undefined
  authorization: string | undefined
  contentLength: string | undefined
  contentType: string | undefined
  body: string
}

let server: Server
let port: number
const hits: Hit[] = []

beforeAll(async () => {
  server = createServer(async (request: IncomingMessage, response) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    hits.push({
      method: request.method ?? '',
      url: request.url ?? '',
      host: request.headers.host,
      authorization: request.headers.authorization,
      contentLength: request.headers['content-length'],
      contentType: request.headers['content-type'],
      body: Buffer.concat(chunks).toString(),
    })
    if (request.url === '/redirect') {
      response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' })
      response.end()
    } else if (request.url === '/gzip') {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
      response.end(gzipSync(JSON.stringify({ ok: true })))
    } else {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ ok: true }))
    }
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  port = (server.address() as AddressInfo).port
})
afterAll(() => {
  server.close()
})

/** Names only this resolver knows: the system resolver cannot reach them, the pinned address can. */
const resolve = async (host: string) => {
  if (host === 'model.internal-test') return [{ address: '127.0.0.1', family: 4 }]
  throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' })
}

describe('the outbound fetch', () => {
  it('connects to the address the policy checked (no second lookup), with the URL’s own Host', async () => {
    const send = createOutboundFetch(OutboundPolicy.checked({ allow: [], resolve }))
    hits.length = 0
    const reply = await send(`http://model.internal-test:${port}/v1/models`)
    expect(await reply.json()).toEqual({ ok: true })
    expect(hits).toMatchObject([{ url: '/v1/models', host: `model.internal-test:${port}` }])
  })

  it('refuses what the policy refuses before any byte is sent', async () => {
    const send = createOutboundFetch(OutboundPolicy.checked({ allow: [], loopback: false, resolve }))
    hits.length = 0
    for (const url of [`http://127.1:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`, `http://2130706433:${port}/`]) {
      await expect(send(url), url).rejects.toMatchObject({ code: 'endpoint_not_allowed' })
    }
    await expect(send('file:///etc/passwd')).rejects.toMatchObject({ code: 'endpoint_scheme_refused' })
    expect(hits).toEqual([])
  })

  it('sends URL credentials as Basic authorization, never in the request line', async () => {
    const send = createOutboundFetch(OutboundPolicy.open())
    hits.length = 0
    await send(`http://user%40x:p%3Ass@127.0.0.1:${port}/v1/chat`, { method: 'POST', body: '{}' })
    expect(hits[0]?.authorization).toBe(`Basic ${Buffer.from('user@x:p:ss').toString('base64')}`)
    expect(hits[0]?.url).toBe('/v1/chat')
  })

  it('follows no redirect: manual returns the 3xx, otherwise a coded refusal', async () => {
    const send = createOutboundFetch(OutboundPolicy.open())
    const manual = await send(`http://127.0.0.1:${port}/redirect`, { redirect: 'manual' })
    expect(manual.status).toBe(302)
    await expect(send(`http://127.0.0.1:${port}/redirect`)).rejects.toMatchObject({ code: 'endpoint_redirect_refused' })
  })

  it('bodies of every kind arrive whole, with their length; gzip replies are decoded', async () => {
    const send = createOutboundFetch(OutboundPolicy.open())
    hits.length = 0
    const url = `http://127.0.0.1:${port}/echo`
    await send(url, { method: 'POST', body: 'text é' })
    await send(url, { method: 'POST', body: new TextEncoder().encode('bytes') })
    await send(url, { method: 'PUT', body: new Blob(['blob content'], { type: 'application/octet-stream' }) })
    await send(url, { method: 'POST', body: new URLSearchParams({ a: '1', b: 'two' }) })
    expect(hits.map((hit) => [hit.method, hit.body, hit.contentLength])).toEqual([
      ['POST', 'text é', '7'],
      ['POST', 'bytes', '5'],
      ['PUT', 'blob content', '12'],
      ['POST', 'a=1&b=two', '9'],
    ])
    expect(hits[3]?.contentType).toContain('application/x-www-form-urlencoded')
    expect(await (await send(`http://127.0.0.1:${port}/gzip`)).json()).toEqual({ ok: true })
  })

  it('fails as fetch does: TypeError with the system error as its cause; an abort rejects with its reason', async () => {
    const send = createOutboundFetch(OutboundPolicy.open())
    const refused = await send('http://127.0.0.1:1/').catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(TypeError)
    expect((refused as { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED')
    const controller = new AbortController()
    controller.abort(new Error('stop'))
    await expect(send(`http://127.0.0.1:${port}/`, { signal: controller.signal })).rejects.toThrow('stop')
  })
})
