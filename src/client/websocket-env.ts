/**
 * @module client: a remote env as an `AsyncEnv`, over OpenEnv's `/ws`. Calls are correlated by request
 * id and time out. If the connection is lost (server restart, reaped idle session, network), the next
 * call reconnects with exponential backoff and, for a deterministic env, rebuilds the episode by replaying
 * its reset and calls, checking the last reply byte for byte; otherwise it fails with `episode_lost`.
 */

import type { z } from 'zod'
import type {
  AsyncEnv,
  EnvSpec,
  EpisodeInfo,
  Observation,
  ResetParams,
  ResetResult,
  StepResult,
  ToolCall,
} from '../core/env/env-api.js'
import type { JsonObject } from '../core/json/json-value.js'
import { type ObservationReply, observationReplySchema, stateReplySchema } from '../core/wire/openenv-reply.js'
import { ConnectionLostError, EpisodeLostError, MalformedReplyError } from './client-errors.js'
import { fetchEnvSpec } from './fetch-env-spec.js'
import { WsConnection, type WsReply } from './ws-connection.js'

export interface ConnectEnvOptions {
  /** `http://host:port` (the default env) or `http://host:port/envs/<id>`. */
  baseUrl: string
  token?: string
  connectTimeoutMs?: number
  requestTimeoutMs?: number
  /** Reconnect attempts per call after a lost connection (0 disables). */
  reconnectAttempts?: number
  reconnectInitialDelayMs?: number
  reconnectMaxDelayMs?: number
  maxPayloadBytes?: number
}

type Settings = Required<Omit<ConnectEnvOptions, 'token'>> & { headers: Record<string, string>; wsUrl: string }

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Connects to a served env: reads its spec from `/metadata`, then opens `/ws`. */
export async function connectEnv(options: ConnectEnvOptions): Promise<WebSocketEnv> {
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const settings: Settings = {
    baseUrl,
    connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
    requestTimeoutMs: options.requestTimeoutMs ?? 60_000,
    reconnectAttempts: options.reconnectAttempts ?? 5,
    reconnectInitialDelayMs: options.reconnectInitialDelayMs ?? 100,
    reconnectMaxDelayMs: options.reconnectMaxDelayMs ?? 5_000,
    maxPayloadBytes: options.maxPayloadBytes ?? 100 * 1024 * 1024,
    headers: options.token === undefined ? {} : { authorization: `Bearer ${options.token}` },
    wsUrl: `${baseUrl.replace(/^http/, 'ws')}/ws`,
  }
  const spec = await fetchEnvSpec({ baseUrl, headers: settings.headers, timeoutMs: settings.connectTimeoutMs })
  const env = new WebSocketEnv(spec, settings)
  await env.connect()
  return env
}

export class WebSocketEnv<O extends Observation = Observation> implements AsyncEnv<O> {
  private connection: WsConnection | undefined
  private readonly texts = new WeakMap<object, string>()
  /** The current episode as sent: its reset and calls, and the raw text of the last reply. */
  private journal: { reset: Record<string, unknown>; calls: Record<string, unknown>[]; lastRaw: string } | undefined
  private closed = false
  /** Connections opened after the first (for tests and logs). */
  reconnects = 0

  constructor(
    readonly spec: EnvSpec,
    private readonly settings: Settings,
  ) {}

  async connect(): Promise<void> {
    this.connection = await WsConnection.open({
      url: this.settings.wsUrl,
      headers: this.settings.headers,
      connectTimeoutMs: this.settings.connectTimeoutMs,
      maxPayloadBytes: this.settings.maxPayloadBytes,
    })
  }

  async reset(params: ResetParams = {}): Promise<ResetResult<O>> {
    const data: Record<string, unknown> = {}
    if (params.seed !== undefined) data.seed = params.seed
    if (params.options !== undefined) data.options = params.options
    const reply = await this.call({ type: 'reset', data }, false)
    this.journal = { reset: data, calls: [], lastRaw: reply.raw }
    const payload = parseReply(observationReplySchema, reply)
    return { observation: this.observationOf(payload), info: infoOf(payload) }
  }

  async step(call: ToolCall): Promise<StepResult<O>> {
    const action = { tool: call.name, arguments: call.arguments }
    const reply = await this.call({ type: 'step', data: action }, true)
    if (this.journal) {
      this.journal.calls.push(action)
      this.journal.lastRaw = reply.raw
    }
    const payload = parseReply(observationReplySchema, reply)
    const { terminated, truncated } = payload.metadata
    return {
      observation: this.observationOf(payload),
      reward: payload.reward ?? 0,
      terminated,
      truncated,
      info: infoOf(payload),
    }
  }

  /** The text the server rendered for an observation this client returned. */
  render(observation: O): string {
    const text = this.texts.get(observation)
    if (text === undefined) throw new ConnectionLostError('render() needs an observation returned by this client.')
    return text
  }

  async state(): Promise<JsonObject> {
    // Validated; every value came from JSON.parse, so it is JSON.
    return parseReply(stateReplySchema, await this.call({ type: 'state' }, true)) as JsonObject
  }

  async close(): Promise<void> {
    this.closed = true
    this.connection?.notify({ type: 'close' })
    this.connection?.close()
    this.connection = undefined
  }

  /** Drops the connection as a network failure would (tests of reconnection use it). */
  simulateConnectionLoss(): void {
    this.connection?.terminate()
  }

  private observationOf(payload: ObservationReply): O {
    const { metadata: _metadata, ...observation } = payload.observation
    this.texts.set(observation, payload.metadata.text)
    // Validated above; every value came from JSON.parse, so it is JSON.
    return observation as unknown as O
  }

  /** One request; on a lost connection, reconnect (with replay when `restore`) and retry. */
  private async call(message: Record<string, unknown>, restore: boolean): Promise<WsReply> {
    if (this.closed) throw new ConnectionLostError('The env client is closed.')
    let attempt = 0
    for (;;) {
      try {
        if (!this.connection?.isOpen) await this.reopen(restore)
        return await (this.connection as WsConnection).request(message, this.settings.requestTimeoutMs)
      } catch (error) {
        const lost = ConnectionLostError.isInstance(error) && !this.closed
        if (!lost || attempt >= this.settings.reconnectAttempts) throw error
        const delay = Math.min(this.settings.reconnectMaxDelayMs, this.settings.reconnectInitialDelayMs * 2 ** attempt)
        attempt++
        await sleep(delay * (0.5 + Math.random() / 2))
      }
    }
  }

  private async reopen(restore: boolean): Promise<void> {
    this.connection?.terminate()
    this.connection = undefined
    await this.connect()
    this.reconnects++
    const journal = this.journal
    if (!restore || !journal) return
    if (!this.spec.deterministic) {
      this.journal = undefined
      throw new EpisodeLostError(`The connection was lost and ${this.spec.id} is not deterministic; reset to start again.`)
    }
    const connection = this.connection as unknown as WsConnection
    let last = (await connection.request({ type: 'reset', data: journal.reset }, this.settings.requestTimeoutMs)).raw
    for (const action of journal.calls) {
      last = (await connection.request({ type: 'step', data: action }, this.settings.requestTimeoutMs)).raw
    }
    if (stripRequestId(last) !== stripRequestId(journal.lastRaw)) {
      this.journal = undefined
      throw new EpisodeLostError('The episode replayed on a new connection differs from the original; reset to start again.')
    }
  }
}

/** A reply as the wire module declares it; anything else is a coded `malformed_reply`. */
function parseReply<T extends z.ZodType>(schema: T, reply: WsReply): z.output<T> {
  const parsed = schema.safeParse(reply.data)
  if (!parsed.success) throw new MalformedReplyError(reply.type, parsed.error.issues)
  // The reply as sent, not zod's copy: a loose object's copy puts declared keys first, and an
  // observation's key order is what records and renders of it keep.
  return reply.data as z.output<T>
}

/** Validated by the schema (cumulative_reward, step_count); the rest is JSON from JSON.parse. */
const infoOf = (payload: ObservationReply) => payload.metadata.info as EpisodeInfo

function stripRequestId(raw: string): string {
  return raw.replace(/,"request_id":"c\d+"}$/, '}')
}
