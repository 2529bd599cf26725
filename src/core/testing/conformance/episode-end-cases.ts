/** @module core/testing/conformance: episodes end at the step limit and need a reset; resets, state and renders are JSON and text. */
import type { Observation } from '../../env/env-api.js'
import { isJsonValue } from '../../json/json-value.js'
import { check, safeStep, thrownCode } from './conformance-checks.js'
import type { ConformanceCase, ConformanceContext } from './conformance-context.js'

export function episodeEndCases<O extends Observation>({ spec, createEnv, resets }: ConformanceContext<O>): ConformanceCase[] {
  return [
    {
      name: 'episodes are truncated at maxEpisodeSteps, then need a reset',
      async run() {
        const env = createEnv()
        await env.reset(resets[0])
        const call = { name: 'no_such_tool', arguments: {} }
        for (let step = 1; step <= spec.maxEpisodeSteps; step++) {
          const result = await safeStep(env, call, 'truncation')
          const last = step === spec.maxEpisodeSteps
          check(result.truncated === last, 'truncation', `step ${step}: truncated=${result.truncated}, expected ${last}`)
          check(!result.terminated, 'truncation', 'bad calls must not terminate the episode')
        }
        const code = await thrownCode(() => env.step(call))
        check(code === 'reset_needed', 'truncation', `a step after truncation must throw reset_needed, got ${String(code)}`)
        const again = await env.reset(resets[0])
        check(again.info.step_count === 0, 'truncation', 'reset must start a new episode')
      },
    },
    {
      name: 'reset results, state and renders are JSON and text',
      async run() {
        for (const reset of resets) {
          const env = createEnv()
          const result = await env.reset(reset)
          check(isJsonValue(result.observation) && isJsonValue(result.info), 'json', 'reset must return plain JSON')
          check(isJsonValue(await env.state()), 'json', 'state() must be plain JSON')
          const text = await env.render(result.observation)
          check(typeof text === 'string' && text.length > 0, 'json', 'render() must give text')
          // A live episode's total is what it would score if it ended now: zero, or the unfinished-episode reward.
          const start = spec.unfinishedEpisodeReward ?? 0
          check(result.info.cumulative_reward === start && result.info.step_count === 0, 'json', `reset info starts at ${start}`)
        }
      },
    },
  ]
}
