/** @module server/session: the typed errors of session handling (capacity, lookup, lifecycle). */
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'

/** The session limit is reached; carries the counts (OpenEnv `CAPACITY_REACHED`, HTTP 429). */
export class CapacityReachedError extends ReleaseOpsError {
  readonly activeSessions: number
  readonly maxSessions: number

  constructor(options: { activeSessions: number; maxSessions: number }) {
    super({
      code: 'capacity_reached',
      message: `Maximum concurrent sessions reached (${options.activeSessions}/${options.maxSessions}). Close a session or retry later.`,
      details: { active_sessions: options.activeSessions, max_sessions: options.maxSessions },
    })
    this.name = 'CapacityReachedError'
    this.activeSessions = options.activeSessions
    this.maxSessions = options.maxSessions
  }
}

/**
 * One client holds its share of the sessions (`--max-sessions-per-client`): HTTP 429, OpenEnv
 * `CAPACITY_REACHED` on a WebSocket. The server may have room for others.
 */
export class ClientShareReachedError extends ReleaseOpsError {
  readonly clientSessions: number
  readonly maxSessionsPerClient: number

  constructor(options: { clientSessions: number; maxSessionsPerClient: number }) {
    super({
      code: 'too_many_sessions',
      message: `This client holds ${options.clientSessions} sessions, its share of the server (--max-sessions-per-client ${options.maxSessionsPerClient}). Close one or retry later.`,
      details: {
        limit: 'max_sessions_per_client',
        client_sessions: options.clientSessions,
        max_sessions_per_client: options.maxSessionsPerClient,
      },
    })
    this.name = 'ClientShareReachedError'
    this.clientSessions = options.clientSessions
    this.maxSessionsPerClient = options.maxSessionsPerClient
  }
}

/** No live session has this id (never created, closed, reaped, or owned by another env). */
export class UnknownSessionError extends ReleaseOpsError {
  constructor(sessionId: string) {
    super({
      code: 'unknown_session',
      message: `Unknown session "${sessionId}": it was never created, was closed, or was reaped after being idle.`,
      details: { session_id: sessionId },
    })
    this.name = 'UnknownSessionError'
  }
}

/** Why a session ended; sent to WebSocket clients in the close frame. */
export type SessionCloseReason = 'client_closed' | 'idle_timeout' | 'connection_lost' | 'server_shutdown' | 'replaced'
