/**
 * Issue 14: v3's held-out archetype mix costs the evidence-using baseline at least 0.1 avg reward, with
 * interval bounds, and a supervisor that reads evidence still beats it. In that mix the shortcut author,
 * with no careful reviewer, links re-runs of the failed jobs only (partial-rerun.ts), a behaviour no
 * training mix has. Paired on the same 1,080 seen-family episodes (seed, family, difficulty fixed, only
 * the mix changes) the mean difference held-out − training has its 95% upper bound at or below −0.1
 * against every training mix; on the eval split the held-out mix's 60 rows have their Wilson upper bound
 * more than 0.1 below eval_seen's mean. Means are the measured ones (deterministic; a change here is a
 * behaviour change). See decision 0035, "Held-out mix".
 */
import { describe, expect, it } from 'vitest'
import type { Policy } from '../src/core/policy/policy.js'
import { playAuditEpisode, wilsonMeanInterval } from '../src/core/testing/exploit-audit.js'
import { makeEnv, policyRegistry } from '../src/envs/index.js'
import { difficulties } from '../src/envs/releaseops/arena/difficulty.js'
import { heldOutMixesV3, trainMixesV3 } from '../src/envs/releaseops/v3/archetype-mixes.js'
import { datasetRowsV3 } from '../src/envs/releaseops/v3/dataset.js'
import { seenFamiliesV3 } from '../src/envs/releaseops/v3/families/index.js'
import type { ReleaseOpsV3Observation } from '../src/envs/releaseops/v3/releaseops-env.js'
import { rerunReadingHeuristicPolicy } from './support/rerun-reading-heuristic.js'

const episodes = 1080
const heldOut = heldOutMixesV3[0]

/** Measured mean difference held-out − training, per training mix (evidence-heuristic). */
const measured: Record<string, number> = {
  shortcut__careful__deadline: -0.6413,
  stale_policy__careful__deadline: -0.6543,
  overconfident__careful__shortcut: -0.6498,
  deadline__careful__overconfident: -0.6494,
  careful__careful__overconfident: -0.6665,
  careful__stale_policy__deadline: -0.5775,
}

type PolicyFactory = () => Policy<ReleaseOpsV3Observation>
const heuristic: PolicyFactory = () => policyRegistry.create('releaseops-v3', 'evidence-heuristic') as never
const oracle: PolicyFactory = () => policyRegistry.create('releaseops-v3', 'oracle') as never

const mean = (values: readonly number[]) => values.reduce((total, value) => total + value, 0) / values.length

function pairedRewards(mix: string, create: PolicyFactory = heuristic): number[] {
  const env = makeEnv('releaseops-v3')
  const policy = create()
  return Array.from({ length: episodes }, (_, index) =>
    playAuditEpisode(env, policy as never, {
      seed: 700_000 + index,
      options: {
        family: seenFamiliesV3[index % seenFamiliesV3.length],
        difficulty: difficulties[Math.floor(index / seenFamiliesV3.length) % difficulties.length],
        archetype_mix: mix,
      },
    }),
  )
}

/** The eval split's rows by slice: eval_seen and the held-out mix's rows of eval_unseen. */
function evalSlices(create: PolicyFactory): { seen: number[]; mix: number[] } {
  const env = makeEnv('releaseops-v3')
  const policy = create()
  const slices = { seen: [] as number[], mix: [] as number[] }
  for (const row of datasetRowsV3('eval')) {
    const slice = row.split === 'eval_seen' ? slices.seen : row.archetype_mix === heldOut ? slices.mix : undefined
    if (!slice) continue
    const options = { family: row.family, difficulty: row.difficulty, archetype_mix: row.archetype_mix }
    slice.push(playAuditEpisode(env, policy as never, { seed: row.seed as number, options }))
  }
  return slices
}

const interval = (values: readonly number[]) =>
  wilsonMeanInterval(mean(values), values.length, [Math.min(...values), Math.max(...values)])

describe('releaseops-v3 held-out mix', () => {
  it('costs evidence-heuristic at least 0.1 against every training mix (paired 95% upper bound ≤ −0.1)', () => {
    const held = pairedRewards(heldOut)
    expect(mean(held)).toBeCloseTo(0.1379, 4)
    for (const mix of trainMixesV3) {
      const train = pairedRewards(mix)
      const differences = held.map((value, index) => value - (train[index] as number))
      const difference = mean(differences)
      const variance = differences.reduce((total, value) => total + (value - difference) ** 2, 0) / (episodes - 1)
      const upper = difference + 1.96 * Math.sqrt(variance / episodes)
      expect(upper, mix).toBeLessThanOrEqual(-0.1)
      expect(difference, mix).toBeCloseTo(measured[mix] as number, 4)
    }
  }, 30_000)

  it('on the eval split its 60 rows sit more than 0.1 below eval_seen, interval bounds included; the oracle wins them all', () => {
    const { seen, mix } = evalSlices(heuristic)
    expect([seen.length, mix.length]).toEqual([300, 60])
    expect(mean(seen)).toBeCloseTo(0.8148, 4)
    expect(mean(mix)).toBeCloseTo(0.1542, 4)
    const [seenLow] = interval(seen)
    const [, mixHigh] = interval(mix)
    expect(mixHigh).toBeLessThan(mean(seen) - 0.1)
    expect(mixHigh).toBeLessThan(seenLow - 0.1)
    const ceiling = evalSlices(oracle)
    expect(Math.min(...ceiling.mix)).toBeGreaterThanOrEqual(1)
  })

  it('is beaten by reading: the baseline plus "skip a re-run, read the team\'s refs" recovers most of the gap', () => {
    const { seen, mix } = evalSlices(rerunReadingHeuristicPolicy)
    // The added rule never fires outside the held-out mix: eval_seen is the baseline's, episode for episode.
    expect(seen).toEqual(evalSlices(heuristic).seen)
    expect(mean(mix)).toBeCloseTo(0.7033, 4)
    expect(mean(mix)).toBeGreaterThan(0.1542 + 0.5)
  })
})
