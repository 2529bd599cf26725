/** The gate's reasons alone: the rate, then too few scored episodes, then the learning signal, in that order. */
import { describe, expect, it } from 'vitest'
import { gateReasons } from './gate-report.js'
import { judgeRolloutRate, promptSignal } from './rollout-gate-rule.js'

const bounds = { lower: 0.2, upper: 0.8 }
const noSignals = { tool_use: null, answers: null, ships: null }
const mixed = promptSignal(
  new Map([
    ['0', [true, false]],
    ['1', [false, true]],
  ]),
  2,
)

describe('gateReasons', () => {
  it('gives no reason when the rate is in bounds, enough episodes scored and prompts disagree', () => {
    const verdict = judgeRolloutRate({ successes: 2, trials: 4, ...bounds })
    expect(
      gateReasons({ verdict, bounds, minDenominator: 4, samples: 2, perPrompt: mixed, signals: noSignals, profile: null }),
    ).toEqual([])
  })

  it('lists the rate, then the short denominator, then the learning signal, each coded with what it measured', () => {
    const verdict = judgeRolloutRate({ successes: 0, trials: 2, ...bounds })
    const perPrompt = promptSignal(new Map([['0', [false, false]]]), 2)
    const reasons = gateReasons({ verdict, bounds, minDenominator: 4, samples: 2, perPrompt, signals: noSignals, profile: null })
    expect(reasons.map((reason) => [reason.code, reason.measured, reason.threshold])).toEqual([
      ['rate_out_of_bounds', 0, null],
      ['denominator_below_minimum', 2, 4],
      ['no_learning_signal', 0, expect.any(Number)],
    ])
    expect(reasons[0]?.message).toBe('nonzero-reward rate 0/2 is outside [0.2, 0.8]')
  })
})
