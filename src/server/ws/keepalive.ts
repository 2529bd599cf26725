/**
 * @module server/ws: WebSocket keepalive. One timer pings every open socket; a socket that has sent
 * neither a pong nor a message for `timeoutMs` is half-open (the peer vanished without a FIN) and is
 * terminated, which ends its session. The timeout spans several pings, so a client busy with a long
 * model generation that answers pings late is not dropped (OpenEnv #362, #875).
 */
import type { WebSocket } from 'ws'

export interface KeepaliveOptions {
  intervalMs: number
  timeoutMs: number
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
    socket.once('close', () => this.lastSeen.delete(socket))
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
