/**
 * @module server/usage: the server's own record of what clients did with its envs: resets, steps, tool
 * calls by name, rejected calls, finished episodes, and the last episodes with their cumulative reward.
 * Every env the server makes (HTTP sessions, stateless routes, WebSocket, MCP) is wrapped, so a training
 * run can be checked against these numbers instead of the trainer's word: every rollout reset the env,
 * tools really were called, and rewards are the env's.
 */
import type { Env, Observation, ResetParams, ResetResult, StepResult, ToolCall } from '../../core/env/env-api.js'
import { InternalInvariantError } from '../../core/errors/internal-invariant-error.js'
import { EnvRegistry, type MakeEnvOptions } from '../../core/registry/env-registry.js'
import { EnvWrapper } from '../../core/wrappers/env-wrapper.js'

export interface EpisodeUsage {
  env_id: string
  /** Numbered per process, in reset order. */
  episode: number
  seed: number | null
  family: string | null
  steps: number
  tool_calls: number
  tool_errors: number
  cumulative_reward: number
  terminated: boolean
  truncated: boolean
}

interface EnvCounts {
  resets: number
  steps: number
  tool_errors: number
  episodes_terminated: number
  episodes_truncated: number
  tool_calls: Record<string, number>
}

/** Names outside the env's tool list are counted under this key (a client cannot grow the map). */
const unknownToolKey = '(unknown tool)'

export class EnvUsageCounters {
  private readonly byEnv = new Map<string, EnvCounts>()
  private readonly recent: EpisodeUsage[] = []
  private episodes = 0
  readonly since: string
  readonly recentLimit: number

  constructor(options: { recentLimit?: number; now?: Date } = {}) {
    this.recentLimit = options.recentLimit ?? 2048
    this.since = (options.now ?? new Date()).toISOString()
  }

  private counts(envId: string): EnvCounts {
    let counts = this.byEnv.get(envId)
    if (!counts) {
      counts = { resets: 0, steps: 0, tool_errors: 0, episodes_terminated: 0, episodes_truncated: 0, tool_calls: {} }
      this.byEnv.set(envId, counts)
    }
    return counts
  }

  /** `startReward`: the reset's own cumulative reward (v3 starts an episode at its missed-deadline score). */
  startEpisode(envId: string, params: ResetParams | undefined, startReward = 0): EpisodeUsage {
    this.counts(envId).resets++
    const family = params?.options?.family
    const episode: EpisodeUsage = {
      env_id: envId,
      episode: this.episodes++,
      seed: params?.seed ?? null,
      family: typeof family === 'string' ? family.slice(0, 100) : null,
      steps: 0,
      tool_calls: 0,
      tool_errors: 0,
      cumulative_reward: startReward,
      terminated: false,
      truncated: false,
    }
    this.recent.push(episode)
    if (this.recent.length > this.recentLimit) this.recent.splice(0, this.recent.length - this.recentLimit)
    return episode
  }

  recordStep(options: {
    envId: string
    toolNames: ReadonlySet<string>
    episode: EpisodeUsage | undefined
    call: ToolCall
    result: StepResult
  }): void {
    const counts = this.counts(options.envId)
    const { result, episode } = options
    counts.steps++
    const name = options.toolNames.has(options.call.name) ? options.call.name : unknownToolKey
    counts.tool_calls[name] = (counts.tool_calls[name] ?? 0) + 1
    const rejected = result.observation.error !== undefined
    if (rejected) counts.tool_errors++
    if (result.terminated) counts.episodes_terminated++
    else if (result.truncated) counts.episodes_truncated++
    if (episode) {
      episode.steps++
      episode.tool_calls++
      if (rejected) episode.tool_errors++
      episode.cumulative_reward = result.info.cumulative_reward
      episode.terminated = result.terminated
      episode.truncated = result.truncated
    }
  }

  /** `GET /counters`: totals per env, and the last episodes (newest last, at most `recent`). */
  snapshot(options: { recent?: number; envId?: string } = {}): Record<string, unknown> {
    const envs: Record<string, unknown> = {}
    const totals = { resets: 0, steps: 0, tool_calls: 0, tool_errors: 0 }
    for (const [envId, counts] of this.byEnv) {
      if (options.envId !== undefined && envId !== options.envId) continue
      const toolCalls = Object.values(counts.tool_calls).reduce((sum, value) => sum + value, 0)
      envs[envId] = { ...counts, tool_calls: { ...counts.tool_calls }, tool_calls_total: toolCalls }
      totals.resets += counts.resets
      totals.steps += counts.steps
      totals.tool_calls += toolCalls
      totals.tool_errors += counts.tool_errors
    }
    const limit = Math.max(0, Math.min(options.recent ?? 100, this.recentLimit))
    const recent = this.recent.filter((episode) => options.envId === undefined || episode.env_id === options.envId)
    return {
      since: this.since,
      totals,
      envs,
      episodes_started: this.episodes,
      recent_episodes: limit === 0 ? [] : recent.slice(-limit).map((episode) => ({ ...episode })),
    }
  }
}

/** An env wrapper (like the step limit) that counts resets and steps; behaviour is unchanged. */
export class UsageCountingEnv<O extends Observation = Observation> extends EnvWrapper<O> {
  private readonly toolNames: ReadonlySet<string>
  private episode: EpisodeUsage | undefined

  constructor(
    inner: Env<O>,
    private readonly envId: string,
    private readonly counters: EnvUsageCounters,
  ) {
    super(inner)
    this.toolNames = new Set(inner.spec.tools.map((tool) => tool.name))
  }

  reset(params?: ResetParams): ResetResult<O> {
    const result = this.inner.reset(params)
    this.episode = this.counters.startEpisode(this.envId, params, result.info.cumulative_reward)
    return result
  }

  step(call: ToolCall): StepResult<O> {
    const result = this.inner.step(call)
    this.counters.recordStep({ envId: this.envId, toolNames: this.toolNames, episode: this.episode, call, result })
    return result
  }
}

/** A registry whose `make` returns counted envs (registrations are the wrapped registry's). */
export class CountingEnvRegistry extends EnvRegistry {
  constructor(
    private readonly inner: EnvRegistry,
    readonly counters: EnvUsageCounters,
  ) {
    super()
  }

  override register(): void {
    throw new InternalInvariantError('Register envs on the wrapped registry.')
  }

  override ids(): string[] {
    return this.inner.ids()
  }

  override has(id: string): boolean {
    return this.inner.has(id)
  }

  override get(id: string) {
    return this.inner.get(id)
  }

  override make<O extends Observation = Observation>(id: string, options: MakeEnvOptions = {}): Env<O> {
    return new UsageCountingEnv(this.inner.make<O>(id, options), id, this.counters)
  }
}
