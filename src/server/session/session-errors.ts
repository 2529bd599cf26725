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
