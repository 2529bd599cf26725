/**
 * @module server/cluster: `releaseops serve --workers N`. The primary listens, forks N workers and hands
 * each accepted connection to one of them (`ConnectionHandoff`, so a WebSocket session stays on its
 * connection's process and no connection is lost when a worker dies), and relays session-bound HTTP
 * requests between workers: a worker asks for another's session, the primary passes the request to the
 * owner, which runs it with `app.inject` and sends the reply back.
 */
import cluster, { type Worker } from 'node:cluster'
import { randomUUID } from 'node:crypto'
import { type AddressInfo, createServer, type Server } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { listenErrorOf } from '../listen-error.js'
import type { ForwardedReply, ForwardedRequest } from '../server-context.js'
import { acceptHandedConnections, ConnectionHandoff } from './connection-handoff.js'

export const workerIndexVariable = 'RELEASEOPS_WORKER_INDEX'

type ClusterMessage =
  | { releaseops: 'forward'; id: string; request: ForwardedRequest }
  | { releaseops: 'run'; id: string; from: number; request: ForwardedRequest }
  | { releaseops: 'ran'; id: string; from: number; reply: ForwardedReply }
  | { releaseops: 'forwarded'; id: string; reply: ForwardedReply }
  /** The owner is gone or not yet serving (a replacement starting): its sessions are lost. */
  | { releaseops: 'owner-gone'; id: string }
  /** The worker's server is ready for connections. */
  | { releaseops: 'listening'; index: number }

const isClusterMessage = (value: unknown): value is ClusterMessage =>
  typeof value === 'object' && value !== null && typeof (value as { releaseops?: unknown }).releaseops === 'string'

const unavailable = (message: string): ForwardedReply => ({
  statusCode: 503,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify({ error: { code: 'worker_unavailable', message } }),
})

export interface ClusterPrimaryOptions {
  workers: number
  host: string
  port: number
  /** Called once the primary listens and every worker serves, with the URL they share. */
  onListening: (url: string) => void
  log: (line: string) => void
  /** On SIGTERM, how long workers get to close (their shutdown grace and a margin) before the primary exits. */
  stopAfterMs?: number
}

/** What the primary keeps: its workers by index, which serve, and the forwarded requests awaiting a reply. */
interface PrimaryState {
  readonly options: ClusterPrimaryOptions
  readonly byIndex: Map<number, Worker>
  /** Workers whose server is up (a replacement is not until it says so). */
  readonly listening: Set<number>
  /** Forwarded requests awaiting their owner's reply: id -> asking worker and owner. */
  readonly inFlight: Map<string, { from: number; owner: number }>
  handoff: ConnectionHandoff | undefined
  stopping: boolean
  announced: boolean
  url: string | undefined
}

/** The URL clients use for a listening address (an IPv6 host in brackets). */
export function primaryUrl(address: Pick<AddressInfo, 'address' | 'port'>): string {
  const shown = address.address.includes(':') ? `[${address.address}]` : address.address
  return `http://${shown}:${address.port}`
}

/** The forwarded requests (id and asking worker) that `owner` was running, in the order they came. */
export function requestsOwnedBy(
  inFlight: ReadonlyMap<string, { from: number; owner: number }>,
  owner: number,
): { id: string; from: number }[] {
  return [...inFlight].filter(([, entry]) => entry.owner === owner).map(([id, entry]) => ({ id, from: entry.from }))
}

const ownerGone = (state: PrimaryState, from: number, id: string) =>
  state.byIndex.get(from)?.send({ releaseops: 'owner-gone', id } satisfies ClusterMessage)

/** Calls `onListening` once, when the primary listens and every worker serves. */
function announce(state: PrimaryState): void {
  if (state.announced || state.url === undefined || state.listening.size < state.options.workers) return
  state.announced = true
  state.options.onListening(state.url)
}

/** A worker's message: it serves, it asks for another's session, or it ran one for another. */
function relay(state: PrimaryState, index: number, message: ClusterMessage): void {
  if (message.releaseops === 'listening') {
    state.listening.add(message.index)
    announce(state)
  } else if (message.releaseops === 'forward') {
    const ownerIndex = message.request.workerIndex
    const owner = state.byIndex.get(ownerIndex)
    // Answered at once when the owner is not serving: a replacement has none of the old sessions,
    // and one still starting would never read the request (issue 18 item 3).
    if (!owner?.isConnected() || !state.listening.has(ownerIndex)) {
      ownerGone(state, index, message.id)
      return
    }
    state.inFlight.set(message.id, { from: index, owner: ownerIndex })
    owner.send({ releaseops: 'run', id: message.id, from: index, request: message.request })
  } else if (message.releaseops === 'ran') {
    state.inFlight.delete(message.id)
    state.byIndex.get(message.from)?.send({ releaseops: 'forwarded', id: message.id, reply: message.reply })
  }
}

/** A worker exited: its forwarded requests get owner-gone; it is restarted unless the primary is stopping. */
function onWorkerExit(state: PrimaryState, index: number, worker: Worker, exit: string | number): void {
  state.listening.delete(index)
  state.handoff?.onExit(index)
  for (const { id, from } of requestsOwnedBy(state.inFlight, index)) {
    state.inFlight.delete(id)
    ownerGone(state, from, id)
  }
  if (state.byIndex.get(index) === worker) state.byIndex.delete(index)
  if (state.stopping) {
    if (state.byIndex.size === 0) process.exit(0)
    return
  }
  state.options.log(`releaseops serve: worker ${index} exited (${exit}); its sessions are lost; restarting it\n`)
  fork(state, index)
}

function fork(state: PrimaryState, index: number): void {
  const worker = cluster.fork({ [workerIndexVariable]: String(index) })
  state.byIndex.set(index, worker)
  worker.on('message', (message: unknown) => {
    if (state.handoff?.onMessage(message) || !isClusterMessage(message)) return
    relay(state, index, message)
  })
  worker.on('exit', (code, signal) => onWorkerExit(state, index, worker, signal ?? code))
}

/** On SIGINT/SIGTERM: stop listening, ask every worker to close, exit when they have (or after `stopAfterMs`). */
function stopOnSignals(state: PrimaryState, server: Server): void {
  const stop = () => {
    if (state.stopping) return
    state.stopping = true
    server.close()
    if (state.byIndex.size === 0) process.exit(0)
    for (const worker of state.byIndex.values()) worker.process.kill('SIGTERM')
    setTimeout(() => process.exit(0), state.options.stopAfterMs ?? 15_000).unref()
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

/**
 * Runs in the primary: listens, forks, relays, restarts crashed workers, stops them all on SIGINT/SIGTERM.
 * Resolves once it listens (workers then start); rejects with the coded listen error (nothing forked).
 */
export async function runClusterPrimary(options: ClusterPrimaryOptions): Promise<void> {
  const state: PrimaryState = {
    options,
    byIndex: new Map(),
    listening: new Set(),
    inFlight: new Map(),
    handoff: undefined,
    stopping: false,
    announced: false,
    url: undefined,
  }
  const server = createServer({ pauseOnConnect: true })
  state.handoff = new ConnectionHandoff(server, {
    serving: () => [...state.listening].sort((a, b) => a - b),
    worker: (index) => state.byIndex.get(index),
    starting: () => !state.stopping && state.listening.size < options.workers,
  })
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', (error) => reject(listenErrorOf(error, options)))
    server.listen({ host: options.host, port: options.port }, () => resolveListen())
  })
  state.url = primaryUrl(server.address() as AddressInfo)
  for (let index = 0; index < options.workers; index++) fork(state, index)
  stopOnSignals(state, server)
}

/**
 * Runs in a worker: the `forward` function of its server context. Resolves undefined when the owner is
 * gone (the session is lost: the route answers `unknown_session`, and clients start a new one).
 */
export function clusterForwarder(timeoutMs = 60_000): (request: ForwardedRequest) => Promise<ForwardedReply | undefined> {
  const pending = new Map<string, (reply: ForwardedReply | undefined) => void>()
  process.on('message', (message: unknown) => {
    if (!isClusterMessage(message)) return
    if (message.releaseops === 'forwarded' || message.releaseops === 'owner-gone') {
      pending.get(message.id)?.(message.releaseops === 'forwarded' ? message.reply : undefined)
      pending.delete(message.id)
    }
  })
  return (request) =>
    new Promise((resolve) => {
      const id = randomUUID()
      const timer = setTimeout(() => {
        pending.delete(id)
        resolve(unavailable('The worker owning this session did not answer in time.'))
      }, timeoutMs)
      pending.set(id, (reply) => {
        clearTimeout(timer)
        resolve(reply)
      })
      process.send?.({ releaseops: 'forward', id, request } satisfies ClusterMessage)
    })
}

/**
 * Runs in a worker whose app is ready (not listening: the primary hands it connections): serves them,
 * answers requests other workers forward to it, and announces that it serves.
 */
export function serveForwardedRequests(options: { app: FastifyInstance; index: number }): void {
  acceptHandedConnections(options.app.server)
  process.on('message', async (message: unknown) => {
    if (!isClusterMessage(message) || message.releaseops !== 'run') return
    const { request } = message
    const response = await options.app.inject({
      method: request.method as 'POST',
      url: request.url,
      headers: request.headers,
      ...(request.body === undefined ? {} : { payload: request.body }),
    })
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') headers[name] = value
    process.send?.({
      releaseops: 'ran',
      id: message.id,
      from: message.from,
      reply: { statusCode: response.statusCode, headers, body: response.body },
    } satisfies ClusterMessage)
  })
  process.send?.({ releaseops: 'listening', index: options.index } satisfies ClusterMessage)
}
