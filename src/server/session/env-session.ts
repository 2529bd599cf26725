/**
 * @module server/session: one session = one env instance, owned by one WebSocket connection, one HTTP
 * session id or one MCP session. Envs are synchronous, so the steps of a session are serialised by
 * construction: a call runs to completion before the next message of that session is read.
 */
import type { Env, Observation, ResetResult, StepResult, ToolCall } from '../../core/env/env-api.js'
import type { JsonObject } from '../../core/json/json-value.js'
import type { EnvHost } from '../env-host.js'
import type { ResetKwargs } from '../wire/wire-schemas.js'
import type { SessionCloseReason } from './session-errors.js'

export type SessionKind = 'ws' | 'http' | 'mcp'

export interface EnvSessionOptions {
  id: string
  host: EnvHost
  kind: SessionKind
  now: number
}

export class EnvSession {
  readonly id: string
  readonly host: EnvHost
  readonly kind: SessionKind
  readonly createdAt: number
  lastActivityAt: number
  episodeId: string | null = null
  stepCount = 0
  /** The text of the latest observation (MCP resources read it). */
  lastText = ''
  closed = false
  /** Called once when the session ends for any reason (a WebSocket owner closes its socket here). */
  onClose: ((reason: SessionCloseReason) => void) | undefined
  private readonly env: Env

  constructor(options: EnvSessionOptions) {
    this.id = options.id
    this.host = options.host
    this.kind = options.kind
    this.createdAt = options.now
    this.lastActivityAt = options.now
    this.env = options.host.createEnv()
  }

  /** Throws `InvalidInputError` for bad reset options (a caller bug, not an agent action). */
  reset(kwargs: ResetKwargs | undefined): ResetResult {
    const result = this.env.reset(this.host.resetParams(kwargs))
    this.episodeId = kwargs?.episode_id ?? null
    this.stepCount = result.info.step_count
    return result
  }

  /** A bad call returns an error observation; only protocol misuse (`reset_needed`) throws. */
  step(call: ToolCall): StepResult {
    const result = this.env.step(call)
    this.stepCount = result.info.step_count
    return result
  }

  render(observation: Observation): string {
    return this.env.render(observation)
  }

  /** OpenEnv `State`: episode_id and step_count first, then the env's own state (its keys win). */
  state(): JsonObject {
    return { episode_id: this.episodeId, step_count: this.stepCount, ...this.env.state() }
  }

  touch(now: number): void {
    this.lastActivityAt = now
  }

  /** Idempotent; the store calls it, never the owner directly. */
  close(reason: SessionCloseReason): void {
    if (this.closed) return
    this.closed = true
    this.env.close?.()
    const onClose = this.onClose
    this.onClose = undefined
    onClose?.(reason)
  }
}
