import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { passHatK, passHatKForRow } from './pass-hat-k.js'

/** The share of k-subsets of the trials that are all successes, by enumeration. */
function enumerate(trials: readonly boolean[], k: number): number {
  let all = 0
  let good = 0
  const visit = (start: number, chosen: boolean[]) => {
    if (chosen.length === k) {
      all++
      if (chosen.every(Boolean)) good++
      return
    }
    for (let index = start; index < trials.length; index++) visit(index + 1, [...chosen, trials[index] as boolean])
  }
  visit(0, [])
  return good / all
}

describe('pass^k', () => {
  it('equals the share of all-success k-subsets (tau-bench definition)', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 9 }), fc.integer({ min: 1, max: 9 }), (trials, k) => {
        fc.pre(k <= trials.length)
        expect(passHatKForRow(trials.length, trials.filter(Boolean).length, k)).toBeCloseTo(enumerate(trials, k), 12)
      }),
    )
  })

  it('averages over rows and leaves out rows with too few trials', () => {
    expect(passHatK([[true, true, false], [true, true, true], [false]], 3)).toEqual({
      'pass^1': (2 / 3 + 1 + 0) / 3,
      'pass^2': (1 / 3 + 1) / 2,
      'pass^3': (0 + 1) / 2,
    })
    expect(passHatK([], 2)).toEqual({ 'pass^1': null, 'pass^2': null })
    expect(() => passHatKForRow(2, 1, 3)).toThrow(RangeError)
  })
})
