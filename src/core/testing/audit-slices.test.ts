/** The audit's slices alone: scores per slice, the memoriser's drop on held-out slices, and the failures. */
import { describe, expect, it } from 'vitest'
import { summariseRewards } from './audit-score.js'
import { type AuditSlice, sliceFailures, sliceReports } from './audit-slices.js'

const slice = (name: string, heldOut: boolean, indices: number[], catchesMemoriser = heldOut): AuditSlice => ({
  name,
  measures: name,
  heldOut,
  catchesMemoriser,
  indices,
})

describe('sliceReports', () => {
  const played = new Map([
    ['rule', [1, 1, 0, 0]],
    ['memoriser', [1, 1, 1, -1]],
  ])

  it('scores every played policy on each slice, in played order', () => {
    const [seen] = sliceReports({ slices: [slice('seen', false, [0, 1])], minDrop: 0.5 }, played)
    expect(Object.keys(seen?.scores ?? {})).toEqual(['rule', 'memoriser'])
    expect(seen?.scores.rule).toEqual(summariseRewards([1, 1]))
    expect(seen?.memoriser_drop).toBeUndefined()
  })

  it("gives a held-out slice the memoriser's drop against the pooled seen slices, passing at minDrop", () => {
    const slices = [slice('seen', false, [0, 1]), slice('new', true, [2, 3]), slice('mixed', true, [1, 2], false)]
    const [, held, mixed] = sliceReports({ slices, minDrop: 0.5 }, played)
    expect([held?.memoriser_drop, held?.passed]).toEqual([1, true])
    expect([mixed?.memoriser_drop, mixed?.passed]).toEqual([0, undefined])
    const [, strict] = sliceReports({ slices, minDrop: 1.5 }, played)
    expect(strict?.passed).toBe(false)
    expect(sliceFailures(sliceReports({ slices, minDrop: 1.5 }, played), 1.5)).toEqual([
      'the memoriser drops only 1 on new (at least 1.5 needed): the slice no longer tests generalisation',
    ])
  })

  it('reports no drop without a memoriser', () => {
    const [held] = sliceReports({ slices: [slice('new', true, [2])], minDrop: undefined }, new Map([['rule', [0, 0, 1]]]))
    expect(held?.memoriser_drop).toBeUndefined()
    expect(sliceFailures([held!], undefined)).toEqual([])
  })
})

describe('summariseRewards', () => {
  it('gives the mean to 3 places and a Wilson interval inside the rewards range', () => {
    const score = summariseRewards([1, -1, 1])
    expect(score.episodes).toBe(3)
    expect(score.avg_reward).toBe(0.333)
    expect(score.ci95[0]).toBeGreaterThanOrEqual(-1)
    expect(score.ci95[1]).toBeLessThanOrEqual(1)
    expect(summariseRewards([])).toEqual({ episodes: 0, avg_reward: 0, ci95: [0, 0] })
  })
})
