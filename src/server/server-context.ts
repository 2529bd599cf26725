/** @module server: what every route of one server process shares. */

import type { OutboundPolicy } from '../io/outbound/outbound-policy.js'
import type { EnvHost } from './env-host.js'
import type { ConnectionGuard } from './http/connection-guard.js'
import type { ServerOptions } from './server-options.js'
import type { SessionStore } from './session/session-store.js'
import type { ServerShutdown } from './shutdown/server-shutdown.js'
import type { Keepalive } from './ws/keepalive.js'

export interface ServerContext {
  options: ServerOptions
  hosts: readonly EnvHost[]
  defaultHost: EnvHost
  store: SessionStore
  keepalive: Keepalive
  /** Deadlines of each request phase and each client's share of the connections. */
  connections: ConnectionGuard
  /** The close sequence: drains and closes WebSockets (1001), then runs job hooks. */
  shutdown: ServerShutdown
  /** Where the server may send requests (eval endpoints, the vLLM server, the Hub), and the fetch that does. */
  outbound: { policy: OutboundPolicy; fetch: typeof fetch }
  /** This process's index in a `--workers N` cluster (0 when alone). */
  workerIndex: number
  /**
   * In a cluster: runs an HTTP request for a session owned by another worker there and returns its reply.
   * Undefined when the process serves alone. Resolves undefined when the owner is gone (session lost).
   */
  forward?: (request: ForwardedRequest) => Promise<ForwardedReply | undefined>
}

export interface ForwardedRequest {
  workerIndex: number
  method: string
  url: string
  headers: Record<string, string>
  body: string | undefined
}

export interface ForwardedReply {
  statusCode: number
  headers: Record<string, string>
  body: string
}
