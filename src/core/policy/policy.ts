/**
 * @module core/policy: the policy contract shared by hand-written baselines and model-driven agents.
 * A policy starts an episode from the reset observation, then picks one tool call per observation.
 */
import type { Env, EnvSpec, EpisodeInfo, Observation, ToolCall } from '../env/env-api.js'

export interface PolicyStart<O extends Observation = Observation> {
  observation: O
  info: EpisodeInfo
  spec: EnvSpec
  /** The env itself, for privileged policies (an oracle reads hidden state through it). */
  env: Env<O>
}

export interface PolicyEpisode<O extends Observation = Observation> {
  /** The next call, or null when the policy has nothing more to do. */
  act(observation: O): ToolCall | null
}

export interface Policy<O extends Observation = Observation> {
  readonly name: string
  start(start: PolicyStart<O>): PolicyEpisode<O>
}

/**
 * A policy written as a generator: it yields calls and receives the next observation.
 * Straight-line baselines read like the scripts they reproduce.
 */
export function generatorPolicy<O extends Observation>(
  name: string,
  play: (start: PolicyStart<O>) => Generator<ToolCall, void, O>,
): Policy<O> {
  return {
    name,
    start(start) {
      const generator = play(start)
      let first = true
      return {
        act(observation) {
          const next = first ? generator.next() : generator.next(observation)
          first = false
          return next.done ? null : next.value
        },
      }
    },
  }
}
