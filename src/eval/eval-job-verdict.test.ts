import { describe, expect, it } from 'vitest'
import { defaultMaxFailureShare, judgeEvalJob } from './eval-job-verdict.js'

describe('judgeEvalJob', () => {
  it('no episode scored is failed, with the causes and the first fault', () => {
    const verdict = judgeEvalJob({
      scored: 0,
      unscored: 6,
      causes: { infra_error: 5, tool_error: 1 },
      firstFault: { code: 'endpoint_status', message: 'HTTP 500' },
    })
    expect(verdict.state).toBe('failed')
    expect(verdict.failure_share).toBe(1)
    expect(verdict.error).toEqual({
      code: 'no_episode_scored',
      message: 'No episode was scored: all 6 went unscored (5 infra_error, 1 tool_error); first: endpoint_status: HTTP 500.',
    })
    expect(judgeEvalJob({ scored: 0, unscored: 0 }).state).toBe('failed')
  })

  it('above the stated share of unscored episodes is degraded; at or below it, succeeded', () => {
    expect(defaultMaxFailureShare).toBe(0.05)
    expect(judgeEvalJob({ scored: 95, unscored: 5 })).toEqual({ state: 'succeeded', error: null, failure_share: 0.05 })
    const degraded = judgeEvalJob({ scored: 94, unscored: 6, causes: { infra_error: 6 } })
    expect(degraded.state).toBe('degraded')
    expect(degraded.error?.code).toBe('episodes_unscored')
    expect(degraded.error?.message).toBe(
      '6 of 100 episodes went unscored (6%, above 5%) (6 infra_error): the summary rests on the 94 scored ones.',
    )
    expect(judgeEvalJob({ scored: 94, unscored: 6 }, 0.1).state).toBe('succeeded')
    expect(judgeEvalJob({ scored: 10, unscored: 0 }, 0).state).toBe('succeeded')
    expect(judgeEvalJob({ scored: 10, unscored: 1 }, 0).state).toBe('degraded')
  })
})
