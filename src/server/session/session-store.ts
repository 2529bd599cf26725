/**
 * @module server/session: the live sessions of one server process: capacity limit, each client's share of
 * it (one address cannot hold every slot: decision 0067), lookup and the idle reaper (on by default:
 * OpenEnv leaks slots on half-open sockets because its reaper is off).
 */
import { randomUUID } from 'node:crypto'
import type { EnvHost } from '../env-host.js'
import { EnvSession, type SessionKind } from './env-session.js'
import { CapacityReachedError, ClientShareReachedError, type SessionCloseReason, UnknownSessionError } from './session-errors.js'

export interface SessionStoreOptions {
  maxSessions: number
  /** Most sessions one client (`clientKeyOf` its address) may hold; `maxSessions` when absent. */
  maxSessionsPerClient?: number
  /** Sessions idle longer than this are closed; 0 turns the reaper off. */
  sessionTimeoutMs: number
  /** Prepended to ids, so a cluster worker can tell which process owns a session (`w2.<uuid>`). */
  idPrefix?: string
  now?: () => number
}

export interface SessionCounts {
  active_sessions: number
  max_sessions: number
  by_kind: Record<SessionKind, number>
}

export class SessionStore {
  private readonly sessions = new Map<string, EnvSession>()
  private readonly options: Required<SessionStoreOptions>
  /** Live sessions per client, and each session's client. */
  private readonly byClient = new Map<string, number>()
  private readonly clientOf = new Map<string, string>()
  private reaper: NodeJS.Timeout | undefined
  /** Sessions ever closed, by reason (for `/health` and the reliability tests). */
  readonly closedByReason: Record<SessionCloseReason, number> = {
    client_closed: 0,
    idle_timeout: 0,
    connection_lost: 0,
    server_shutdown: 0,
    replaced: 0,
  }

  constructor(options: SessionStoreOptions) {
    this.options = { idPrefix: '', now: Date.now, maxSessionsPerClient: options.maxSessions, ...options }
  }

  get size(): number {
    return this.sessions.size
  }

  get maxSessions(): number {
    return this.options.maxSessions
  }

  now(): number {
    return this.options.now()
  }

  /**
   * Throws `CapacityReachedError` when full and `ClientShareReachedError` when `client` holds its share;
   * env construction errors propagate (`FACTORY_ERROR`).
   */
  create(host: EnvHost, kind: SessionKind, client = 'local'): EnvSession {
    if (this.sessions.size >= this.options.maxSessions) {
      throw new CapacityReachedError({ activeSessions: this.sessions.size, maxSessions: this.options.maxSessions })
    }
    const held = this.byClient.get(client) ?? 0
    if (held >= this.options.maxSessionsPerClient) {
      throw new ClientShareReachedError({ clientSessions: held, maxSessionsPerClient: this.options.maxSessionsPerClient })
    }
    const id = `${this.options.idPrefix}${randomUUID()}`
    const session = new EnvSession({ id, host, kind, now: this.now() })
    this.sessions.set(id, session)
    this.byClient.set(client, held + 1)
    this.clientOf.set(id, client)
    return session
  }

  /** Sessions `client` holds now. */
  heldBy(client: string): number {
    return this.byClient.get(client) ?? 0
  }

  get(id: string): EnvSession | undefined {
    return this.sessions.get(id)
  }

  /** The live session with this id for this env, touched; throws `UnknownSessionError` otherwise. */
  require(id: string, host?: EnvHost): EnvSession {
    const session = this.sessions.get(id)
    if (!session || (host && session.host !== host)) throw new UnknownSessionError(id)
    session.touch(this.now())
    return session
  }

  close(id: string, reason: SessionCloseReason): boolean {
    const session = this.sessions.get(id)
    if (!session) return false
    this.sessions.delete(id)
    const client = this.clientOf.get(id) as string
    this.clientOf.delete(id)
    const held = (this.byClient.get(client) ?? 1) - 1
    if (held > 0) this.byClient.set(client, held)
    else this.byClient.delete(client)
    this.closedByReason[reason]++
    session.close(reason)
    return true
  }

  counts(): SessionCounts {
    const byKind: Record<SessionKind, number> = { ws: 0, http: 0, mcp: 0 }
    for (const session of this.sessions.values()) byKind[session.kind]++
    return { active_sessions: this.sessions.size, max_sessions: this.options.maxSessions, by_kind: byKind }
  }

  /** Closes every session idle for longer than the timeout; returns how many. */
  reap(): number {
    const timeout = this.options.sessionTimeoutMs
    if (timeout <= 0) return 0
    const deadline = this.now() - timeout
    let reaped = 0
    for (const session of [...this.sessions.values()]) {
      if (session.lastActivityAt < deadline && this.close(session.id, 'idle_timeout')) reaped++
    }
    return reaped
  }

  /** Checks every timeout/4 (at least every 5 s, at most every 50 ms), like OpenEnv's reaper but on by default. */
  startReaper(): void {
    if (this.reaper || this.options.sessionTimeoutMs <= 0) return
    const interval = Math.max(50, Math.min(5000, this.options.sessionTimeoutMs / 4))
    this.reaper = setInterval(() => this.reap(), interval)
    this.reaper.unref()
  }

  stopReaper(): void {
    if (this.reaper) clearInterval(this.reaper)
    this.reaper = undefined
  }

  closeAll(reason: SessionCloseReason): void {
    for (const id of [...this.sessions.keys()]) this.close(id, reason)
  }
}
