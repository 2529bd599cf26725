import { describe, expect, it } from 'vitest'
import { learningVerdict, type ProbeSample } from './learning-verdict.js'

/** 16 rows × 4 samples; `pick(row, k)` says what sample k of a row did. */
function probe(pick: (row: number, k: number) => Partial<ProbeSample>): ProbeSample[] {
  const samples: ProbeSample[] = []
  for (let row = 0; row < 16; row++)
    for (let k = 0; k < 4; k++)
      samples.push({ row, tool: null, accepted: false, reward: -0.6, start_reward: -0.6, ...pick(row, k) })
  return samples
}
const rejected = (tool: string): Partial<ProbeSample> => ({ tool, accepted: false, reward: -0.85 })
const held: Partial<ProbeSample> = { tool: 'hold_release', accepted: true, reward: -0.6 }

describe('learningVerdict', () => {
  it('a gain that is one planted call is not learning: more hold_release raises the accepted rate, one tool carries it', () => {
    const before = probe((_, k) => (k < 2 ? rejected('approve_proposal') : {}))
    const after = probe((_, k) => (k < 2 ? rejected('approve_proposal') : held))
    const verdict = learningVerdict(before, after)
    const accepted = verdict.metrics.accepted_call_rate
    expect(accepted.gain).toBe(0.5)
    expect(accepted.ci95?.low).toBeGreaterThan(0)
    expect(accepted.top_tool).toBe('hold_release')
    expect(accepted.gain_without_top_tool).toBe(0)
    expect(accepted.passed).toBe(false)
    // hold_release scores what no call scores on v3: the reward did not move at all.
    expect(verdict.metrics.reward.gain).toBe(0)
    expect(verdict.metrics.reward.passed).toBe(false)
  })

  it('fewer rejected calls across tools raise the env’s reward: the interval is above 0 and two tools share the gain', () => {
    const before = probe((_row, k) => (k === 0 ? rejected('approve_proposal') : k === 1 ? rejected('inspect_ci_run') : {}))
    const after = probe((row, k) =>
      k === 0 && row % 4 === 0 ? rejected('approve_proposal') : k === 1 && row % 4 === 1 ? rejected('inspect_ci_run') : held,
    )
    const { reward } = learningVerdict(before, after).metrics
    expect(reward.before).toBe(-0.725)
    expect(reward.gain).toBeCloseTo(0.09375, 6)
    expect(reward.by_tool.approve_proposal).toBeCloseTo(0.046875, 6)
    expect(reward.by_tool.inspect_ci_run).toBeCloseTo(0.046875, 6)
    expect(reward.by_tool.hold_release).toBe(0)
    expect(reward.ci95?.low).toBeGreaterThan(0)
    expect(reward.gain_without_top_tool).toBeGreaterThan(0)
    expect(reward.passed).toBe(true)
  })

  it('a change within noise fails: the interval holds 0; the same inputs give the same interval', () => {
    const before = probe((row, k) => ((row + k) % 3 === 0 ? rejected('approve_proposal') : {}))
    const after = probe((row, k) => ((((row + 1) % 16) + k) % 3 === 0 ? rejected('approve_proposal') : {})) // rows shifted by one
    const verdict = learningVerdict(before, after)
    expect(verdict.metrics.reward.ci95?.low).toBeLessThan(0)
    expect(verdict.metrics.reward.ci95?.high).toBeGreaterThan(0)
    expect(verdict.metrics.reward.passed).toBe(false)
    expect(learningVerdict(before, after)).toEqual(verdict)
    expect(verdict).toMatchObject({ rows: 16, pairs: 64, resamples: 2000 })
  })

  it('a gain made by calling less is not learning: stopping instead of a rejected call raises the reward, and fails', () => {
    const calling = (_row: number, k: number) => (k < 2 ? rejected(k === 0 ? 'approve_proposal' : 'inspect_ci_run') : held)
    const before = probe(calling)
    const after = probe((row, k) => (k < 2 && row % 8 !== 0 ? {} : calling(row, k))) // the rejected calls become no call
    const verdict = learningVerdict(before, after)
    const { reward } = verdict.metrics
    expect(reward.gain).toBeCloseTo(0.109375, 6)
    expect(reward.ci95?.low).toBeGreaterThan(0)
    expect(reward.gain_without_top_tool).toBeGreaterThan(0) // two tools' rejections went: not one tool's
    expect(verdict.no_call).toMatchObject({ before: 0, after: 0.4375, gain: 0.4375 })
    expect(verdict.no_call.ci95?.low).toBeGreaterThan(0)
    expect(verdict.calling_less).toBe(true)
    expect(reward.passed).toBe(false)
    expect(verdict.metrics.accepted_call_rate.passed).toBe(false)
    // The same rejections turned into accepted holds: the same reward gain, and it passes.
    const holding = learningVerdict(
      before,
      probe((row, k) => (k < 2 && row % 8 !== 0 ? held : calling(row, k))),
    )
    expect(holding.metrics.reward.gain).toBeCloseTo(0.109375, 6)
    expect(holding.calling_less).toBe(false)
    expect(holding.metrics.reward.passed).toBe(true)
  })
})
