import { describe, expect, it } from 'vitest'
import { averageRanks, kendallTauB, spearmanRho } from './rank-agreement.js'

describe('rank agreement', () => {
  it('ties share their average rank', () => {
    expect(averageRanks([10, 20, 20, 5])).toEqual([2, 3.5, 3.5, 1])
  })

  it('agreeing orders give 1, reversed ones -1, a constant score null', () => {
    const x = [0.1, 0.5, 0.3, 0.9]
    expect(spearmanRho(x, [1, 5, 3, 9])).toBeCloseTo(1, 12)
    expect(kendallTauB(x, [1, 5, 3, 9])).toBeCloseTo(1, 12)
    expect(spearmanRho(x, [9, 5, 7, 1])).toBeCloseTo(-1, 12)
    expect(kendallTauB(x, [9, 5, 7, 1])).toBeCloseTo(-1, 12)
    expect(spearmanRho(x, [2, 2, 2, 2])).toBeNull()
    expect(kendallTauB(x, [2, 2, 2, 2])).toBeNull()
  })

  it("match scipy's spearmanr and kendalltau (tau-b) on a case with ties", () => {
    // scipy 1.17 stats.spearmanr / kendalltau (tau-b) of these two lists: 0.7981987297166115, 0.6155870112510924.
    const x = [1, 2, 2, 3, 4, 5, 6]
    const y = [2, 1, 3, 3, 5, 4, 4]
    expect(spearmanRho(x, y)).toBeCloseTo(0.7981987297166115, 12)
    expect(kendallTauB(x, y)).toBeCloseTo(0.6155870112510924, 12)
  })
})
