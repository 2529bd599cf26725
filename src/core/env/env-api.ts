/**
 * @module core/env: the environment contract. Gymnasium semantics inside, OpenEnv on the wire.
 *
 * A bad tool call is data, not an exception: the observation carries `error`, the env applies
 * its invalid-action penalty and the episode goes on.
 */
import type { JsonObject } from '../json/json-value.js'
import type { ToolDefinition } from '../tools/define-tool.js'
import type { EnvError } from './env-error.js'

export type { EnvError, EnvErrorIssue } from './env-error.js'

/** One tool call as an agent emits it; `arguments` is whatever arrived and is validated by the env. */
export interface ToolCall {
  name: string
  arguments?: unknown
}

/** Every observation is a plain JSON object; `error` is set when the call that produced it was bad. */
export type Observation = JsonObject & { error?: EnvError & JsonObject }

/** `info` always holds the running episode reward and the step count. */
export type EpisodeInfo = JsonObject & {
  cumulative_reward: number
  step_count: number
}

export interface ResetParams {
  seed?: number
  options?: Record<string, unknown>
}

export interface ResetResult<O extends Observation = Observation> {
  observation: O
  info: EpisodeInfo
}

export interface StepResult<O extends Observation = Observation> {
  observation: O
  /** The reward of this step alone; the episode total is `info.cumulative_reward`. */
  reward: number
  terminated: boolean
  truncated: boolean
  info: EpisodeInfo
}

/** The static description of an env: what `/schema`, `/metadata` and tool lists are built from. */
export interface EnvSpec {
  /** Versioned id, `name-vN`. */
  id: string
  description: string
  tools: readonly ToolDefinition[]
  /** Episodes are truncated after this many steps (the registry's step-limit wrapper). */
  maxEpisodeSteps: number
  /** Same seed and calls give byte-identical observations, rewards and state. */
  deterministic: boolean
  /** The step reward of a bad call (unknown tool, bad arguments, impossible action). */
  invalidActionReward: number
  /** Seed used when reset() gets none. */
  defaultSeed: number
  /**
   * What an episode that ends without a terminal outcome scores (truncation, a policy that stops).
   * When set, `info.cumulative_reward` includes it while the episode is live, and the env adds it to
   * the step reward of its own truncation; absent, an unfinished episode scores its running total.
   */
  unfinishedEpisodeReward?: number
}

/** A synchronous, in-process environment. */
export interface Env<O extends Observation = Observation> {
  readonly spec: EnvSpec
  reset(params?: ResetParams): ResetResult<O>
  step(call: ToolCall): StepResult<O>
  /** The text a model sees for this observation (the reset prompt, or a tool message). */
  render(observation: O): string
  /** Public episode state (no hidden ground truth). */
  state(): JsonObject
  close?(): void
}

/** The same contract over a transport (HTTP, WebSocket); the conformance suite runs against both. */
export interface AsyncEnv<O extends Observation = Observation> {
  readonly spec: EnvSpec
  reset(params?: ResetParams): Promise<ResetResult<O>>
  step(call: ToolCall): Promise<StepResult<O>>
  render(observation: O): string | Promise<string>
  state(): Promise<JsonObject>
  close?(): void | Promise<void>
}

export type AnyEnv<O extends Observation = Observation> = Env<O> | AsyncEnv<O>
