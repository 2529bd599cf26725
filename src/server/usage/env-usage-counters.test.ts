import { describe, expect, it } from 'vitest'
import { envRegistry } from '../../envs/index.js'
import { EnvUsageCounters, UsageCountingEnv } from './env-usage-counters.js'

type Recent = { recent_episodes: { cumulative_reward: number; steps: number }[] }

describe('EnvUsageCounters: an episode’s cumulative reward', () => {
  it('starts at what the reset scored, so a rollout without a call matches its server episode (v3: −0.6)', () => {
    const counters = new EnvUsageCounters()
    const env = new UsageCountingEnv(envRegistry.make('releaseops-v3'), 'releaseops-v3', counters)
    const reset = env.reset({ seed: 7 })
    expect(reset.info.cumulative_reward).toBe(-0.6)
    const [episode] = (counters.snapshot() as Recent).recent_episodes
    expect(episode).toMatchObject({ cumulative_reward: -0.6, steps: 0 })
  })

  it('then follows every step’s total', () => {
    const counters = new EnvUsageCounters()
    const env = new UsageCountingEnv(envRegistry.make('releaseops-v3'), 'releaseops-v3', counters)
    env.reset({ seed: 7 })
    const step = env.step({ name: 'no_such_tool', arguments: {} })
    const [episode] = (counters.snapshot() as Recent).recent_episodes
    expect(episode).toMatchObject({ cumulative_reward: step.info.cumulative_reward, steps: 1 })
    expect(step.info.cumulative_reward).not.toBe(-0.6)
  })

  it('is 0 at reset where the env starts there (v2)', () => {
    const counters = new EnvUsageCounters()
    new UsageCountingEnv(envRegistry.make('releaseops-v2'), 'releaseops-v2', counters).reset({ seed: 7 })
    expect((counters.snapshot() as Recent).recent_episodes[0]?.cumulative_reward).toBe(0)
  })
})
