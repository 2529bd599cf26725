import { describe, expect, it } from 'vitest'
import { envRegistry } from '../../envs/index.js'
import { EnvHost } from '../env-host.js'
import { CapacityReachedError, UnknownSessionError } from './session-errors.js'
import { SessionStore } from './session-store.js'

const host = new EnvHost({ registry: envRegistry, envId: 'releaseops-v1', isDefault: true })

function storeWithClock(options: { maxSessions?: number; sessionTimeoutMs?: number; idPrefix?: string } = {}) {
  let now = 1_000
  const store = new SessionStore({
    maxSessions: options.maxSessions ?? 4,
    sessionTimeoutMs: options.sessionTimeoutMs ?? 100,
    ...(options.idPrefix === undefined ? {} : { idPrefix: options.idPrefix }),
    now: () => now,
  })
  return { store, advance: (ms: number) => (now += ms) }
}

describe('SessionStore', () => {
  it('refuses past capacity with the counts, and admits again after a close', () => {
    const { store } = storeWithClock({ maxSessions: 2 })
    const first = store.create(host, 'ws')
    store.create(host, 'http')
    expect(() => store.create(host, 'mcp')).toThrow(CapacityReachedError)
    try {
      store.create(host, 'mcp')
    } catch (error) {
      expect((error as CapacityReachedError).details).toEqual({ active_sessions: 2, max_sessions: 2 })
    }
    expect(store.close(first.id, 'client_closed')).toBe(true)
    expect(store.close(first.id, 'client_closed')).toBe(false)
    expect(store.create(host, 'mcp').kind).toBe('mcp')
    expect(store.counts()).toEqual({ active_sessions: 2, max_sessions: 2, by_kind: { ws: 0, http: 1, mcp: 1 } })
  })

  it('reaps only sessions idle past the timeout; activity keeps a session alive', () => {
    const { store, advance } = storeWithClock({ sessionTimeoutMs: 100 })
    const idle = store.create(host, 'http')
    const busy = store.create(host, 'ws')
    const reasons: string[] = []
    idle.onClose = (reason) => reasons.push(reason)
    advance(80)
    store.require(busy.id)
    advance(40)
    expect(store.reap()).toBe(1)
    expect(reasons).toEqual(['idle_timeout'])
    expect(idle.closed).toBe(true)
    expect(store.get(busy.id)).toBe(busy)
    expect(store.closedByReason.idle_timeout).toBe(1)
  })

  it('a timeout of 0 turns the reaper off', () => {
    const { store, advance } = storeWithClock({ sessionTimeoutMs: 0 })
    store.create(host, 'http')
    advance(1e9)
    expect(store.reap()).toBe(0)
    expect(store.size).toBe(1)
  })

  it('require checks the id and the env; ids carry the worker prefix', () => {
    const { store } = storeWithClock({ idPrefix: 'w3.' })
    const session = store.create(host, 'http')
    expect(session.id).toMatch(/^w3\.[0-9a-f-]{36}$/)
    expect(store.require(session.id, host)).toBe(session)
    const other = new EnvHost({ registry: envRegistry, envId: 'releaseops-v1', isDefault: false })
    expect(() => store.require(session.id, other)).toThrow(UnknownSessionError)
    expect(() => store.require('nope')).toThrow(UnknownSessionError)
  })

  it('closeAll closes every session with the reason', () => {
    const { store } = storeWithClock()
    const sessions = [store.create(host, 'ws'), store.create(host, 'http')]
    store.closeAll('server_shutdown')
    expect(sessions.every((session) => session.closed)).toBe(true)
    expect(store.size).toBe(0)
    expect(store.closedByReason.server_shutdown).toBe(2)
  })
})
