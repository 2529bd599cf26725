/**
 * @module core/testing: degenerate strategies any env's exploit audit plays: never calling a tool,
 * repeating a bad call, one valid-looking call and then silence, and random valid-looking calls drawn from the
 * tool schemas and the observation's own strings (seeded, so the audit is deterministic).
 */
import type { EnvSpec, Observation, ToolCall } from '../env/env-api.js'
import type { Policy } from '../policy/policy.js'
import { PythonRandom } from '../python/python-random.js'
import { CallSampler } from './call-sampler.js'
import type { AuditStrategy } from './exploit-audit.js'

function policyOf<O extends Observation>(
  name: string,
  next: (spec: EnvSpec, observation: O, step: number) => ToolCall | null,
): Policy<O> {
  return {
    name,
    start({ spec }) {
      let step = 0
      return { act: (observation) => next(spec, observation, step++) }
    },
  }
}

/** A policy drawing from its own call sampler, reseeded from the previous episode's (so runs repeat). */
function sampledPolicyOf<O extends Observation>(options: {
  name: string
  seed: number
  next: (calls: CallSampler, observation: O, step: number) => ToolCall | null
}): Policy<O> {
  let rng = new PythonRandom(options.seed)
  return {
    name: options.name,
    start({ spec }) {
      rng = new PythonRandom(rng.randint(0, 2 ** 30))
      const calls = new CallSampler(spec, rng)
      let step = 0
      return { act: (observation) => options.next(calls, observation, step++) }
    },
  }
}

export function degenerateStrategies<O extends Observation>(seed = 7): AuditStrategy<O>[] {
  return [
    {
      name: 'never-call-a-tool',
      description: 'ends the episode at once (a model that emits no tool call)',
      policy: () => policyOf<O>('never-call-a-tool', () => null),
    },
    {
      name: 'repeated-bad-calls',
      description: 'an unknown tool, every step',
      policy: () => policyOf<O>('repeated-bad-calls', () => ({ name: 'no_such_tool', arguments: {} })),
    },
    {
      name: 'stop-after-one-call',
      description: 'one random valid-looking call, then nothing',
      policy: () =>
        sampledPolicyOf<O>({
          name: 'stop-after-one-call',
          seed,
          next: (calls, observation, step) => (step === 0 ? calls.plausible(observation) : null),
        }),
    },
    {
      name: 'random-valid-calls',
      description: 'random calls from the tool schemas and the observation’s strings',
      policy: () =>
        sampledPolicyOf<O>({ name: 'random-valid-calls', seed, next: (calls, observation) => calls.plausible(observation) }),
    },
  ]
}
