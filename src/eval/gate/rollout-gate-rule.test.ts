import { describe, expect, it } from 'vitest'
import { wilsonInterval } from '../wilson-interval.js'
import { isFormalBounds, judgeRolloutRate, promptSignal, requiredGateDenominator } from './rollout-gate-rule.js'

describe('rollout gate rule', () => {
  it('passes only inside [5%, 30%], both bounds included', () => {
    const passed = (successes: number, trials: number) => judgeRolloutRate({ successes, trials }).passed
    expect([
      passed(0, 100),
      passed(4, 100),
      passed(5, 100),
      passed(15, 100),
      passed(30, 100),
      passed(31, 100),
      passed(100, 100),
    ]).toEqual([false, false, true, true, true, false, false])
    expect([passed(1, 20), passed(3, 10), passed(2, 57)]).toEqual([true, true, false])
  })

  it('formal bounds are exactly [0.05, 0.30]; the minimum denominator is the whole split, capped at 200', () => {
    expect([isFormalBounds({ lower: 0.05, upper: 0.3 }), isFormalBounds({ lower: 0, upper: 1 })]).toEqual([true, false])
    expect(isFormalBounds({ lower: 0.05, upper: 0.31 })).toBe(false)
    expect(requiredGateDenominator({ splitEpisodes: 40 })).toBe(40)
    expect(requiredGateDenominator({ splitEpisodes: 1000 })).toBe(200)
    expect(requiredGateDenominator({ splitEpisodes: 1000, minimum: 500 })).toBe(500)
  })

  it('reports the Wilson interval and refuses to judge no trials', () => {
    expect(judgeRolloutRate({ successes: 9, trials: 57 })).toEqual({
      numerator: 9,
      denominator: 57,
      rate: 9 / 57,
      ci95: wilsonInterval(9, 57),
      passed: true,
    })
    expect(judgeRolloutRate({ successes: 0, trials: 0 })).toMatchObject({ rate: null, ci95: null, passed: false })
    expect(judgeRolloutRate({ successes: 40, trials: 100, lower: 0.2, upper: 0.5 }).passed).toBe(true)
  })

  it('counts prompts whose samples disagree (the RLOO learning signal)', () => {
    const outcomes = new Map([
      ['a', [true, false, false, false]],
      ['b', [false, false, false, false]],
      ['c', [true, true, true, true]],
      ['d', [false, true, true, false]],
    ])
    expect(promptSignal(outcomes, 4)).toEqual({
      samples_per_prompt: 4,
      prompts: 4,
      mixed_prompts: 2,
      mixed_share: 0.5,
      all_zero_prompts: 1,
      all_success_prompts: 1,
    })
    expect(promptSignal(new Map([['a', [true]]]), 1).mixed_share).toBeNull()
  })
})
