/**
 * Issue 14: v3's held-out archetype mix is measurably harder for the evidence-using baseline than every
 * training mix. Paired on the same 1,080 seen-family episodes (seed, family and difficulty fixed, only
 * the mix changes): the mean difference held-out − training is negative with its 95% interval below zero.
 */
import { describe, expect, it } from 'vitest'
import { playAuditEpisode } from '../src/core/testing/exploit-audit.js'
import { makeEnv, policyRegistry } from '../src/envs/index.js'
import { difficulties } from '../src/envs/releaseops/v2/difficulty.js'
import { heldOutMixesV3, trainMixesV3 } from '../src/envs/releaseops/v3/archetype-mixes-v3.js'
import { seenFamiliesV3 } from '../src/envs/releaseops/v3/families/index.js'

const episodes = 1080

function rewards(mix: string): number[] {
  const env = makeEnv('releaseops-v3')
  const policy = policyRegistry.create('releaseops-v3', 'evidence-heuristic')
  return Array.from({ length: episodes }, (_, index) =>
    playAuditEpisode(env, policy, {
      seed: 700_000 + index,
      options: {
        family: seenFamiliesV3[index % seenFamiliesV3.length],
        difficulty: difficulties[Math.floor(index / seenFamiliesV3.length) % difficulties.length],
        archetype_mix: mix,
      },
    }),
  )
}

describe('releaseops-v3 held-out mix', () => {
  it('costs evidence-heuristic reward against every training mix (paired 95% interval below zero)', () => {
    const held = rewards(heldOutMixesV3[0])
    for (const mix of trainMixesV3) {
      const train = rewards(mix)
      const differences = held.map((value, index) => value - (train[index] as number))
      const mean = differences.reduce((total, value) => total + value, 0) / episodes
      const variance = differences.reduce((total, value) => total + (value - mean) ** 2, 0) / (episodes - 1)
      const upper = mean + 1.96 * Math.sqrt(variance / episodes)
      expect(upper, mix).toBeLessThan(0)
    }
  }, 30_000)
})
