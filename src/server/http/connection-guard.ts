/**
 * @module server/http: deadlines for every phase of an HTTP request, and each client's share of the
 * connections (decision 0067). Node's own `headersTimeout`/`requestTimeout` run only on a server that
 * listens (a cluster worker is handed its connections) and Fastify turns `requestTimeout` off; a body
 * sent a byte every few seconds was never cut. Here, one timer watches every HTTP connection:
 * - **headers**: from the connection (or the first byte after an idle keep-alive) the request line and
 *   headers must arrive within `headerTimeoutMs`, else 408 `header_timeout`;
 * - **body**: from the end of the headers the whole body must arrive within `bodyTimeoutMs`, however it
 *   trickles (progress is what counts, not the first byte), else 408 `body_timeout` naming how much came;
 * - **idle**: a kept-alive connection with no new request for `idleTimeoutMs` is closed (no reply due);
 * - **share**: a client (`clientKeyOf` its address) with `maxConnectionsPerClient` HTTP connections open
 *   has the next one answered 429 `too_many_connections` (and closed) as soon as its request arrives;
 *   one that sends nothing is dropped at a short deadline.
 * A handler's own time is not limited (a Hub push may take minutes). An upgraded connection (WebSocket)
 * leaves this accounting: its session counts against the client's session share instead.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { clientKeyOf } from './client-key.js'
import { HttpError, httpErrorBody } from './http-errors.js'

export interface ConnectionLimits {
  headerTimeoutMs: number
  bodyTimeoutMs: number
  idleTimeoutMs: number
  maxConnectionsPerClient: number
}

type Phase = 'headers' | 'body' | 'handling' | 'idle' | 'refused'

interface Tracked {
  client: string
  phase: Phase
  since: number
  /** `socket.bytesRead` when the phase began (idle: a new byte starts the next request's headers). */
  bytesAtPhase: number
  request: IncomingMessage | undefined
}

/** Cut connections by cause, since start (tests and `/health`-style reporting). */
export interface ConnectionCuts {
  header_timeout: number
  body_timeout: number
  idle_timeout: number
  too_many_connections: number
}

/** How long a connection over its client's share may take to send the request it is refused. */
const refusalGraceMs = 2000

export class ConnectionGuard {
  private readonly tracked = new Map<Socket, Tracked>()
  private readonly perClient = new Map<string, number>()
  private timer: NodeJS.Timeout | undefined
  private readonly now: () => number
  readonly cuts: ConnectionCuts = { header_timeout: 0, body_timeout: 0, idle_timeout: 0, too_many_connections: 0 }

  constructor(
    private readonly limits: ConnectionLimits,
    options: { now?: () => number } = {},
  ) {
    this.now = options.now ?? Date.now
  }

  /** Watches `server`'s connections (accepted or handed to it by a cluster primary). */
  attach(server: Server): void {
    server.on('connection', (socket: Socket) => this.onConnection(socket))
    server.on('request', (request: IncomingMessage, response: ServerResponse) => this.onRequest(request, response))
    server.on('upgrade', (request: IncomingMessage) => this.forget(request.socket))
    const tickMs = Math.max(50, Math.min(500, this.limits.headerTimeoutMs / 4, this.limits.bodyTimeoutMs / 4))
    this.timer = setInterval(() => this.tick(), tickMs)
    this.timer.unref()
    server.once('close', () => this.stop())
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
  }

  /** HTTP connections `client` has open now. */
  openBy(client: string): number {
    return this.perClient.get(client) ?? 0
  }

  /** A Fastify `onRequest` hook: a request on a connection over its client's share is a coded 429. */
  refuseOverShare = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (this.tracked.get(request.raw.socket)?.phase !== 'refused') return
    reply.header('connection', 'close')
    throw new HttpError({
      status: 429,
      code: 'too_many_connections',
      message: `This client has ${this.limits.maxConnectionsPerClient} connections open, its share (--max-connections-per-client); close one, or reuse one (keep-alive).`,
      details: { limit: 'max_connections_per_client', max_connections_per_client: this.limits.maxConnectionsPerClient },
    })
  }

  private onConnection(socket: Socket): void {
    const client = clientKeyOf(socket.remoteAddress)
    const open = this.openBy(client)
    const refused = open >= this.limits.maxConnectionsPerClient
    // A refused connection is not counted: it will be closed, and it must not push out the client's others.
    if (!refused) this.perClient.set(client, open + 1)
    else this.cuts.too_many_connections++
    this.tracked.set(socket, {
      client: refused ? '' : client,
      phase: refused ? 'refused' : 'headers',
      since: this.now(),
      bytesAtPhase: 0,
      request: undefined,
    })
    socket.once('close', () => this.forget(socket))
  }

  private onRequest(request: IncomingMessage, response: ServerResponse): void {
    const entry = this.tracked.get(request.socket)
    if (!entry || entry.phase === 'refused') return
    const hasBody = request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0
    const socket = request.socket
    this.enter(entry, { phase: hasBody && !request.complete ? 'body' : 'handling', socket, request })
    response.once('finish', () => {
      if (this.tracked.get(socket) === entry) this.enter(entry, { phase: 'idle', socket, request: undefined })
    })
  }

  private enter(entry: Tracked, next: { phase: Phase; socket: Socket; request: IncomingMessage | undefined }): void {
    entry.phase = next.phase
    entry.since = this.now()
    entry.request = next.request
    entry.bytesAtPhase = next.socket.bytesRead
  }

  private forget(socket: Socket): void {
    const entry = this.tracked.get(socket)
    if (!entry) return
    this.tracked.delete(socket)
    if (entry.phase === 'refused') return
    const open = (this.perClient.get(entry.client) ?? 1) - 1
    if (open > 0) this.perClient.set(entry.client, open)
    else this.perClient.delete(entry.client)
  }

  /** One round over the HTTP connections: each phase's deadline. */
  tick(): void {
    const now = this.now()
    for (const [socket, entry] of this.tracked) {
      const elapsed = now - entry.since
      switch (entry.phase) {
        case 'headers':
          if (elapsed >= this.limits.headerTimeoutMs) this.cut(socket, 'header_timeout', this.headerTimeout())
          break
        case 'body':
          if (entry.request?.complete) this.enter(entry, { phase: 'handling', socket, request: entry.request })
          else if (elapsed >= this.limits.bodyTimeoutMs) this.cut(socket, 'body_timeout', this.bodyTimeout(socket, entry))
          break
        case 'idle':
          if (socket.bytesRead > entry.bytesAtPhase) {
            entry.phase = 'headers'
            entry.since = now
          } else if (elapsed >= this.limits.idleTimeoutMs) {
            this.cuts.idle_timeout++
            this.forget(socket)
            socket.destroy()
          }
          break
        case 'refused':
          if (elapsed >= Math.min(refusalGraceMs, this.limits.headerTimeoutMs)) {
            this.forget(socket)
            socket.destroy()
          }
          break
        case 'handling':
          break
      }
    }
  }

  private headerTimeout(): HttpError {
    return new HttpError({
      status: 408,
      code: 'header_timeout',
      message: `The request line and headers did not arrive within ${this.limits.headerTimeoutMs / 1000} s (--header-timeout).`,
    })
  }

  private bodyTimeout(socket: Socket, entry: Tracked): HttpError {
    const declared = Number(entry.request?.headers['content-length'] ?? Number.NaN)
    const received = Math.max(0, socket.bytesRead - entry.bytesAtPhase)
    const of = Number.isFinite(declared) ? ` of ${declared}` : ''
    return new HttpError({
      status: 408,
      code: 'body_timeout',
      message: `The request body did not arrive within ${this.limits.bodyTimeoutMs / 1000} s (--body-timeout): about ${received}${of} bytes came.`,
      details: { received_bytes: received, ...(Number.isFinite(declared) ? { declared_bytes: declared } : {}) },
    })
  }

  /** Answers the coded error on the raw socket (no handler is waiting to) and closes the connection. */
  private cut(socket: Socket, cause: 'header_timeout' | 'body_timeout', error: HttpError): void {
    this.cuts[cause]++
    this.forget(socket)
    writeRawError(socket, error)
  }
}

/** Writes a coded error reply straight to a socket and closes it (after the bytes are flushed). */
export function writeRawError(socket: Socket, error: HttpError): void {
  if (socket.destroyed) return
  if (!socket.writable) {
    socket.destroy()
    return
  }
  const body = JSON.stringify(httpErrorBody(error))
  socket.end(
    `HTTP/1.1 ${error.status} ${reasonPhrases[error.status] ?? 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
  // A peer that never reads must not keep the descriptor: the reply had its chance.
  setTimeout(() => socket.destroy(), 1000).unref()
}

const reasonPhrases: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  414: 'URI Too Long',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
}
