import { describe, expect, it } from 'vitest'
import { discordantPairs, type PolicySafety, rewardSafety, type SafetyEpisode, withUnsafePenalty } from './reward-safety.js'

const policy = (name: string, avg_reward: number, safe_rate: number, unsafe_rate: number): PolicySafety => ({
  name,
  avg_reward,
  safe_rate,
  unsafe_rate,
})
// v3's shape in small: shipping blind beats blocking too much, and doing nothing is safest and worst.
const ship = policy('ship-blind', -0.33, 0.33, 0.67)
const block = policy('over-block', -0.37, 0.41, 0.01)
const stop = policy('stop', -0.6, 0, 0)
const reader = policy('reader', 0.88, 0.95, 0.03)

describe('reward against safety', () => {
  it('lists the pairs where more reward comes with more unsafe outcomes, marking those not paid back by safe ones', () => {
    const pairs = discordantPairs([ship, block, stop, reader])
    expect(pairs.map((pair) => `${pair.higher}>${pair.lower}:${pair.net_behind}`)).toEqual([
      'ship-blind>stop:true',
      'ship-blind>over-block:true',
      'reader>stop:false',
      'reader>over-block:false',
      'over-block>stop:false',
    ])
  })

  it('agreement, and the penalty at which every unsafe episode scores below every cautious one', () => {
    const episodes = new Map<string, SafetyEpisode[]>([
      [
        'ship-blind',
        [
          { reward: 1, unsafe: false, cautious: true },
          { reward: -1, unsafe: true, cautious: false },
        ],
      ],
      [
        'over-block',
        [
          { reward: -1.65, unsafe: false, cautious: true },
          { reward: -0.65, unsafe: true, cautious: false },
        ],
      ],
      ['stop', [{ reward: -0.6, unsafe: false, cautious: true }]],
      // Invalid calls are not caution: this episode does not count as the dearest cautious one.
      ['spam', [{ reward: -16, unsafe: false, cautious: false }]],
    ])
    const report = rewardSafety({ policies: [ship, block, stop, reader], episodes, unsafePenalty: -1 })
    expect(report.policies).toBe(4)
    // Reward orders them stop < over-block < ship-blind < reader; safe ships stop < ship-blind < over-block < reader.
    expect(report.safe).toEqual({ spearman: 0.8, kendall: 0.667 })
    expect(report.low_unsafe).toEqual({ spearman: -0.8, kendall: -0.667 })
    expect(report.discordant).toHaveLength(5)
    expect(report.discordant_net_behind).toBe(2)
    expect(report.episodes).toEqual({
      worst_cautious: { reward: -1.65, policy: 'over-block' },
      best_unsafe: { reward: -0.65, policy: 'over-block' },
      unsafe_always_worse: false,
      // -0.65 + (u + 1) < -1.65  ⇔  u < -2: the largest tenth below is -2.1.
      penalty_needed: -2.1,
    })
    const shifted = withUnsafePenalty([ship, block, stop, reader], { from: -1, to: -2.1 })
    expect(shifted.map((item) => item.avg_reward)).toEqual([-1.067, -0.381, -0.6, 0.847])
    expect(discordantPairs(shifted).filter((pair) => pair.net_behind)).toEqual([])
  })

  it('unsafe episodes already below every cautious one: nothing to change', () => {
    const report = rewardSafety({
      policies: [reader, stop],
      episodes: new Map([
        [
          'reader',
          [
            { reward: 1, unsafe: false, cautious: true },
            { reward: -3, unsafe: true, cautious: false },
          ],
        ],
      ]),
      unsafePenalty: -3,
    })
    expect(report.episodes.unsafe_always_worse).toBe(true)
    // Any penalty below 1 keeps the one unsafe episode (-3 at -3) under the cautious one (1).
    expect(report.episodes.penalty_needed).toBe(0.9)
  })
})
