/**
 * @module core/testing: a policy perturbed the way a policy under training is: at each step, with
 * probability `rate`, the base policy's call is swapped for another (`swap` decides which, from the
 * observation and the call it replaces; undefined keeps the call). The base is not told: it goes on as if
 * its call had been made. Draws are seeded per episode (the n-th episode this policy plays), so an audit
 * of the same resets in the same order is deterministic.
 */
import type { Observation, ToolCall } from '../env/env-api.js'
import type { Policy } from '../policy/policy.js'
import { PythonRandom } from '../python/python-random.js'

export interface PerturbationOptions<O extends Observation> {
  name: string
  base: Policy<O>
  /** Chance that a step's call is swapped. */
  rate: number
  seed: number
  swap(observation: O, call: ToolCall): ToolCall | undefined
}

export function perturbedPolicy<O extends Observation>(options: PerturbationOptions<O>): Policy<O> {
  let episodes = 0
  return {
    name: options.name,
    start(start) {
      const random = new PythonRandom(options.seed * 1_000_003 + episodes++)
      const episode = options.base.start(start)
      return {
        act(observation) {
          const call = episode.act(observation)
          if (call === null || random.random() >= options.rate) return call
          return options.swap(observation, call) ?? call
        },
      }
    },
  }
}
