/**
 * @module server/ws: WebSocket keepalive, both ways. One timer pings every open socket; a socket that has
 * sent neither a pong nor a message for `timeoutMs` is half-open (the peer vanished without a FIN) and is
 * terminated, which ends its session. The timeout spans several pings, so a client busy with a long
 * model generation that answers pings late is not dropped (OpenEnv #362, #875).
 * A client's pings are answered here, every one, however many arrive at once (the `ws` library's own
 * answering drops the connection, 1006 and unlogged, once 60 pongs are pending: a burst of 300 pings
 * did that). What bounds a flood is the send buffer: a client that pings without reading the pongs is
 * dropped, with one log line, once `maxBufferedBytes` of replies wait unread, as for any reply.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { WebSocket } from 'ws'

export interface KeepaliveOptions {
  intervalMs: number
  timeoutMs: number
  /** Unread replies (pongs included) a client may leave before it is dropped. */
  maxBufferedBytes: number
  log?: FastifyBaseLogger
  now?: () => number
}

export class Keepalive {
  private readonly lastSeen = new Map<WebSocket, number>()
  private timer: NodeJS.Timeout | undefined
  private readonly now: () => number
  /** Sockets terminated for silence since start (for `/health`). */
  terminated = 0

  constructor(private readonly options: KeepaliveOptions) {
    this.now = options.now ?? Date.now
  }

  track(socket: WebSocket): void {
    this.lastSeen.set(socket, this.now())
    socket.on('pong', () => this.seen(socket))
    socket.on('ping', (data) => this.answerPing(socket, data))
    socket.once('close', () => this.lastSeen.delete(socket))
  }

  /** Sockets dropped because their unread replies passed the limit (for `/health`). */
  overflowed = 0

  /** A pong for each ping, unless the client has stopped reading what it is sent. */
  private answerPing(socket: WebSocket, data: Buffer): void {
    this.seen(socket)
    if (socket.readyState !== socket.OPEN) return
    if (!this.withinBuffer(socket)) return
    socket.pong(data)
  }

  /** False (and the socket dropped, with one log line) once its unread replies pass the limit. */
  withinBuffer(socket: WebSocket): boolean {
    if (socket.bufferedAmount <= this.options.maxBufferedBytes) return true
    this.overflowed++
    this.options.log?.warn(
      `websocket dropped: ${socket.bufferedAmount} bytes of replies unread (limit ${this.options.maxBufferedBytes})`,
    )
    socket.terminate()
    return false
  }

  seen(socket: WebSocket): void {
    if (this.lastSeen.has(socket)) this.lastSeen.set(socket, this.now())
  }

  get size(): number {
    return this.lastSeen.size
  }

  /** One round: terminate the silent, ping the rest. */
  tick(): void {
    const deadline = this.now() - this.options.timeoutMs
    for (const [socket, seen] of this.lastSeen) {
      if (seen < deadline) {
        this.lastSeen.delete(socket)
        this.terminated++
        socket.terminate()
      } else if (socket.readyState === socket.OPEN) {
        socket.ping()
      }
    }
  }

  start(): void {
    if (this.timer || this.options.intervalMs <= 0) return
    this.timer = setInterval(() => this.tick(), this.options.intervalMs)
    this.timer.unref()
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
  }
}
