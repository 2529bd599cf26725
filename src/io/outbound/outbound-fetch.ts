/**
 * @module io/outbound: the one way the project sends a request to another server (model endpoints, the
 * Hub): a `fetch` over `node:http`/`node:https` whose every request passes the outbound policy and is
 * connected to the address the policy checked (a custom `lookup`; TLS still verifies the URL's own name),
 * so DNS cannot swap it between the check and the connection. Node's own `fetch` has no such hook
 * without the `undici` package. Also:
 * - redirects are never followed: with `redirect: 'manual'` a 3xx comes back as it is (the caller
 *   refuses it with its own words); otherwise it is an `endpoint_redirect_refused` error;
 * - credentials in a URL (`user:pass@`) are sent as Basic authorization, never as part of the URL, and
 *   any message about the URL shows it redacted;
 * - failures look like `fetch`'s: a `TypeError('fetch failed')` with the system error as its cause, or
 *   the abort signal's reason.
 */
import { Buffer } from 'node:buffer'
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { LookupFunction } from 'node:net'
import { Readable } from 'node:stream'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import type { Destination, OutboundPolicy } from './outbound-policy.js'
import { OutboundRefusedError } from './outbound-refused-error.js'
import { redactUrl } from './redact-url.js'

const agents = {
  'http:': new HttpAgent({ keepAlive: true, maxSockets: 256 }),
  'https:': new HttpsAgent({ keepAlive: true, maxSockets: 256 }),
}

/** A `fetch` that sends only what `policy` allows, to the address it checked. */
export function createOutboundFetch(policy: OutboundPolicy): typeof fetch {
  return async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const request = input instanceof Request ? input : undefined
    const target = request ? request.url : input instanceof URL ? input.href : String(input)
    const signal = init.signal ?? request?.signal ?? undefined
    if (signal?.aborted) throw signal.reason
    const destination = await policy.destination(target)
    const headers = new Headers(request?.headers)
    for (const [name, value] of new Headers(init.headers)) headers.set(name, value)
    const payload = await bodyOf(init.body ?? request?.body ?? undefined)
    if (payload.type !== undefined && !headers.has('content-type')) headers.set('content-type', payload.type)
    if (payload.length !== undefined) headers.set('content-length', String(payload.length))
    return send({
      destination,
      method: (init.method ?? request?.method ?? 'GET').toUpperCase(),
      headers: withCredentials(destination.url, headers),
      payload,
      redirect: init.redirect ?? request?.redirect ?? 'follow',
      signal,
    })
  }
}

interface Payload {
  data?: Buffer
  stream?: Readable
  length?: number
  type?: string
}

async function bodyOf(body: RequestInit['body'] | ReadableStream | undefined): Promise<Payload> {
  if (body === null || body === undefined) return {}
  if (typeof body === 'string') return { data: Buffer.from(body), type: 'text/plain;charset=UTF-8' }
  if (body instanceof ArrayBuffer) return { data: Buffer.from(body) }
  if (ArrayBuffer.isView(body)) return { data: Buffer.from(body.buffer, body.byteOffset, body.byteLength) }
  if (body instanceof Blob) {
    return {
      stream: Readable.fromWeb(body.stream() as NodeReadableStream),
      length: body.size,
      ...(body.type ? { type: body.type } : {}),
    }
  }
  if (body instanceof ReadableStream) return { stream: Readable.fromWeb(body as NodeReadableStream) }
  // URLSearchParams, FormData: serialised as fetch would (their content type included).
  const serialised = new Response(body)
  const type = serialised.headers.get('content-type')
  return { data: Buffer.from(await serialised.arrayBuffer()), ...(type ? { type } : {}) }
}

/** `user:pass@` in the URL becomes an Authorization header (unless one is set); the URL sent has none. */
function withCredentials(url: URL, headers: Headers): Headers {
  if (url.username === '' && url.password === '') return headers
  if (!headers.has('authorization')) {
    const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
    headers.set('authorization', `Basic ${Buffer.from(pair).toString('base64')}`)
  }
  return headers
}

/** A `lookup` that answers the checked address whatever the name (both of Node's calling forms). */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }])
    else callback(null, address, family)
  }) as LookupFunction
}

function send(options: {
  destination: Destination
  method: string
  headers: Headers
  payload: Payload
  redirect: RequestInit['redirect']
  signal: AbortSignal | undefined
}): Promise<Response> {
  const { destination, method, payload, signal } = options
  const url = destination.url
  const secure = url.protocol === 'https:'
  return new Promise<Response>((resolve, reject) => {
    const outgoing = (secure ? httpsRequest : httpRequest)(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        ...(url.port === '' ? {} : { port: Number(url.port) }),
        path: `${url.pathname}${url.search}`,
        method,
        headers: Object.fromEntries(options.headers),
        agent: agents[secure ? 'https:' : 'http:'],
        ...(destination.address === undefined ? {} : { lookup: pinnedLookup(destination.address, destination.family ?? 4) }),
        ...(signal ? { signal } : {}),
      },
      (reply) => {
        const status = reply.statusCode ?? 0
        if (status >= 300 && status < 400 && options.redirect !== 'manual') {
          reply.destroy()
          reject(
            new OutboundRefusedError({
              code: 'endpoint_redirect_refused',
              message: `${redactUrl(url.href)} answered a redirect (HTTP ${status}); redirects are not followed.`,
            }),
          )
          return
        }
        resolve(responseOf(reply, method))
      },
    )
    outgoing.on('error', (error) => reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error })))
    if (payload.data !== undefined) outgoing.end(payload.data)
    else if (payload.stream !== undefined) {
      payload.stream.on('error', (error) => outgoing.destroy(error))
      payload.stream.pipe(outgoing)
    } else outgoing.end()
  })
}

function responseOf(reply: IncomingMessage, method: string): Response {
  const status = reply.statusCode ?? 0
  const headers = new Headers()
  for (let index = 0; index + 1 < reply.rawHeaders.length; index += 2) {
    headers.append(reply.rawHeaders[index] as string, reply.rawHeaders[index + 1] as string)
  }
  let body: Readable = reply
  const decoder = decoderFor(headers.get('content-encoding'))
  if (decoder) {
    body = reply.pipe(decoder)
    reply.on('error', (error) => decoder.destroy(error))
    headers.delete('content-encoding')
    headers.delete('content-length')
  }
  const empty = method === 'HEAD' || status === 204 || status === 304
  if (empty) reply.resume()
  return new Response(empty ? null : (Readable.toWeb(body) as ReadableStream<Uint8Array>), {
    status,
    statusText: reply.statusMessage ?? '',
    headers,
  })
}

function decoderFor(encoding: string | null) {
  const name = encoding?.trim().toLowerCase()
  if (name === 'gzip' || name === 'x-gzip') return createGunzip()
  if (name === 'deflate') return createInflate()
  if (name === 'br') return createBrotliDecompress()
  return undefined
}
