/**
 * @module client: one WebSocket to an env server with request/reply correlation. Every request carries
 * a `request_id` and its reply is matched by it, so a timed-out request can never shift later replies
 * (OpenEnv #1143). Pings from the server are answered by `ws` itself.
 */
import WebSocket from 'ws'
import { ConnectionLostError, RequestTimeoutError, ServerError } from './client-errors.js'

export interface WsReply {
  type: string
  data: unknown
  /** The reply's raw text (replay checks compare it byte for byte). */
  raw: string
}

interface Pending {
  type: string
  resolve: (reply: WsReply) => void
  reject: (error: Error) => void
  timer: NodeJS.Timeout
}

export interface WsConnectionOptions {
  url: string
  headers?: Record<string, string>
  connectTimeoutMs: number
  maxPayloadBytes: number
}

export class WsConnection {
  private readonly pending = new Map<string, Pending>()
  private nextId = 1
  private closedError: Error | undefined
  /** The last error frame that answered no request (capacity, idle reaping): why the server closed. */
  lastUnsolicitedError: ServerError | undefined

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => this.onMessage(data.toString()))
    socket.on('close', (code, reason) => {
      const why = this.lastUnsolicitedError
      this.failAll(
        new ConnectionLostError(`Connection closed (${code}${reason.length > 0 ? ` ${reason.toString()}` : ''}).`, {
          close_code: code,
          ...(why ? { server_error: why.code } : {}),
        }),
      )
    })
    socket.on('error', () => {})
  }

  static open(options: WsConnectionOptions): Promise<WsConnection> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(options.url, {
        headers: options.headers,
        handshakeTimeout: options.connectTimeoutMs,
        maxPayload: options.maxPayloadBytes,
        perMessageDeflate: false,
      })
      const fail = (error: Error) => {
        socket.removeAllListeners()
        socket.on('error', () => {})
        socket.terminate()
        reject(new ConnectionLostError(`Could not connect to ${options.url}: ${error.message}`))
      }
      socket.once('error', fail)
      socket.once('unexpected-response', (_request, response) => {
        fail(new Error(`HTTP ${response.statusCode} instead of a WebSocket upgrade`))
      })
      socket.once('open', () => {
        socket.removeListener('error', fail)
        resolve(new WsConnection(socket))
      })
    })
  }

  get isOpen(): boolean {
    return this.closedError === undefined && this.socket.readyState === WebSocket.OPEN
  }

  /** Sends `{...message, request_id}` and resolves with the matching reply; error frames reject. */
  request(message: Record<string, unknown>, timeoutMs: number): Promise<WsReply> {
    if (this.closedError) return Promise.reject(this.closedError)
    const requestId = `c${this.nextId++}`
    const type = String(message.type)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId)
        reject(new RequestTimeoutError(timeoutMs, type))
        // The reply may still come; drop the connection so nothing after it can be misattributed.
        this.terminate()
      }, timeoutMs)
      this.pending.set(requestId, { type, resolve, reject, timer })
      this.socket.send(JSON.stringify({ ...message, request_id: requestId }))
    })
  }

  /** Sends without waiting for a reply (`close`). */
  notify(message: Record<string, unknown>): void {
    if (this.isOpen) this.socket.send(JSON.stringify(message))
  }

  close(): void {
    this.failAll(new ConnectionLostError('Connection closed by the client.'))
    this.socket.close(1000)
  }

  terminate(): void {
    this.failAll(new ConnectionLostError('Connection dropped by the client.'))
    this.socket.terminate()
  }

  private onMessage(text: string): void {
    let reply: { type?: unknown; data?: unknown; request_id?: unknown }
    try {
      reply = JSON.parse(text)
    } catch {
      return
    }
    const requestId = typeof reply.request_id === 'string' ? reply.request_id : undefined
    const pending = requestId === undefined ? undefined : this.pending.get(requestId)
    if (!pending) {
      if (reply.type === 'error') this.lastUnsolicitedError = new ServerError((reply.data ?? {}) as Record<string, unknown>)
      return
    }
    this.pending.delete(requestId as string)
    clearTimeout(pending.timer)
    if (reply.type === 'error') pending.reject(new ServerError((reply.data ?? {}) as Record<string, unknown>))
    else pending.resolve({ type: String(reply.type), data: reply.data, raw: text })
  }

  private failAll(error: Error): void {
    this.closedError ??= error
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer)
      pending.reject(error)
    }
    this.pending.clear()
  }
}
