/** @module core/testing/conformance: thousands of random and malformed calls never throw, and rewards add up. */
import type { Observation } from '../../env/env-api.js'
import { check, checkStepShape } from './conformance-checks.js'
import { type ConformanceCase, type ConformanceContext, playTranscript } from './conformance-context.js'

export function fuzzCases<O extends Observation>(context: ConformanceContext<O>): ConformanceCase[] {
  const { spec, createEnv, resets, seed, fuzzCalls } = context
  return [
    {
      name: `fuzz: ${fuzzCalls} random and malformed calls never throw`,
      async run() {
        const env = createEnv()
        let errors = 0
        let valid = 0
        let running = 0
        const perReset = Math.ceil(fuzzCalls / resets.length)
        for (const [index, reset] of resets.entries()) {
          running = 0
          await playTranscript(spec, {
            env,
            reset,
            calls: perReset,
            rngSeed: seed * 7 + index,
            onStep: (result, call) => {
              checkStepShape('fuzz', result, spec, call)
              running += result.reward
              // A live episode's total includes what it would score if it ended unfinished.
              const pending = result.terminated || result.truncated ? 0 : (spec.unfinishedEpisodeReward ?? 0)
              check(
                Math.abs(running + pending - result.info.cumulative_reward) < 1e-6,
                'fuzz',
                'step rewards (plus the unfinished-episode reward while live) must sum to info.cumulative_reward',
                { running, cumulative: result.info.cumulative_reward },
              )
              if (result.observation.error) errors++
              else valid++
              if (result.terminated || result.truncated) running = 0
            },
          })
        }
        check(errors > 0 && valid > 0, 'fuzz', `the fuzzer must produce both bad (${errors}) and valid (${valid}) calls`)
      },
    },
  ]
}
