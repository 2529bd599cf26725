/**
 * @module server/cluster: the primary accepts every connection and hands it to a worker itself, keeping
 * its own copy of the socket until the worker acknowledges it (decision 0047). node:cluster's round
 * robin does the same hand-off but forgets a connection whose worker dies before acknowledging it, and
 * that connection then hangs forever (issue 28 item 4). Here such a connection is answered with a 503
 * `worker_unavailable` (Retry-After: 1) and closed; one acknowledged is the worker's, and the kernel
 * closes it when the worker dies. A connection arriving while no worker serves gets a 503 too: while a
 * worker is still starting (the primary listens before its workers are up) `worker_starting`, which says
 * so, rather than the words for one that stopped.
 */
import type { Worker } from 'node:cluster'
import type { Server, Socket } from 'node:net'

/** The IPC message that carries a socket to a worker, and the worker's acknowledgement. */
export type HandoffMessage = { releaseops: 'connection'; id: number } | { releaseops: 'accepted'; id: number }

const isHandoffMessage = (value: unknown): value is HandoffMessage =>
  typeof value === 'object' &&
  value !== null &&
  ((value as { releaseops?: unknown }).releaseops === 'connection' ||
    (value as { releaseops?: unknown }).releaseops === 'accepted')

/** Why no worker serves a connection: each is a 503 with Retry-After: 1. */
export type Unavailable = 'stopped' | 'starting'

const unavailableBodies: Record<Unavailable, string> = {
  stopped: JSON.stringify({
    error: { code: 'worker_unavailable', message: 'The worker for this connection stopped; retry the request.' },
  }),
  starting: JSON.stringify({
    error: {
      code: 'worker_starting',
      message: 'The server is starting: no worker serves yet. Retry in a moment.',
    },
  }),
}

/** Answers a connection no worker will serve: a 503 it can read, then the connection is closed. */
function answerUnavailable(socket: Socket, why: Unavailable = 'stopped'): void {
  const unavailableBody = unavailableBodies[why]
  if (socket.destroyed) return
  // Read (and drop) what the client sent, so closing sends FIN after the reply rather than a reset.
  socket.on('data', () => {})
  socket.on('error', () => {})
  socket.resume()
  socket.end(
    `HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nRetry-After: 1\r\n` +
      `Connection: close\r\nContent-Length: ${Buffer.byteLength(unavailableBody)}\r\n\r\n${unavailableBody}`,
  )
  setTimeout(() => socket.destroy(), 2000).unref()
}

/** Primary side: distributes `server`'s connections round robin over the workers `serving()` names. */
export class ConnectionHandoff {
  private nextId = 1
  private turn = 0
  private readonly pending = new Map<number, { socket: Socket; worker: number }>()

  constructor(
    server: Server,
    private readonly workers: {
      serving: () => number[]
      worker: (index: number) => Worker | undefined
      /** True while a worker is forked but not serving yet (startup, or a replacement starting). */
      starting: () => boolean
    },
  ) {
    server.on('connection', (socket: Socket) => this.handOff(socket))
  }

  /** A worker's IPC message; true when it was a hand-off acknowledgement. */
  onMessage(message: unknown): boolean {
    if (!isHandoffMessage(message) || message.releaseops !== 'accepted') return false
    const entry = this.pending.get(message.id)
    this.pending.delete(message.id)
    // The worker holds its own descriptor now; closing ours does not end the connection.
    entry?.socket.destroy()
    return true
  }

  /** A worker exited: what it had not acknowledged is answered here. */
  onExit(worker: number): void {
    for (const [id, entry] of this.pending) {
      if (entry.worker !== worker) continue
      this.pending.delete(id)
      answerUnavailable(entry.socket)
    }
  }

  private handOff(socket: Socket): void {
    socket.on('error', () => {})
    const serving = this.workers.serving()
    const index = serving[this.turn++ % Math.max(1, serving.length)]
    const worker = index === undefined ? undefined : this.workers.worker(index)
    if (index === undefined || !worker?.isConnected()) {
      answerUnavailable(socket, serving.length === 0 && this.workers.starting() ? 'starting' : 'stopped')
      return
    }
    const id = this.nextId++
    this.pending.set(id, { socket, worker: index })
    worker.send({ releaseops: 'connection', id } satisfies HandoffMessage, socket, { keepOpen: true }, (error) => {
      if (!error || !this.pending.delete(id)) return
      answerUnavailable(socket)
    })
  }
}

/** Worker side: connections the primary hands over are served by `server` (which does not listen itself). */
export function acceptHandedConnections(server: { emit: (event: 'connection', socket: Socket) => boolean }): void {
  process.on('message', (message: unknown, socket: unknown) => {
    if (!isHandoffMessage(message) || message.releaseops !== 'connection' || socket === undefined) return
    process.send?.({ releaseops: 'accepted', id: message.id } satisfies HandoffMessage)
    server.emit('connection', socket as Socket)
  })
}
