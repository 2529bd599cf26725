import { describe, expect, it } from 'vitest'
import { gateEpisode } from './__fixtures__/gate-episode.js'
import {
  arenaGateProfile,
  effectiveClasses,
  gateProfileFor,
  gateSignals,
  gradingGateProfile,
  learningSignalRule,
  signalReasons,
} from './gate-reasons.js'

const episode = gateEpisode

const codes = (reasons: ReturnType<typeof signalReasons>) => reasons.map((reason) => reason.code)

describe('gate reasons beyond the rate', () => {
  it('effective classes: 1 for one class, k for k equal ones, between for skewed ones', () => {
    expect(effectiveClasses([])).toBeNull()
    expect(effectiveClasses(['a', 'a', 'a'])).toBe(1)
    expect(effectiveClasses(['a', 'b', 'c', 'd'])).toBe(4)
    expect(effectiveClasses(['a', 'a', 'a', 'b'])).toBe(1.6)
  })

  it('one sample per prompt is too few; two with too few mixed prompts is no learning signal', () => {
    const signals = gateSignals({ scored: [], profile: null })
    expect(codes(signalReasons({ samples: 1, mixedShare: null, signals, profile: null }))).toEqual(['too_few_samples'])
    expect(codes(signalReasons({ samples: 2, mixedShare: 0, signals, profile: null }))).toEqual(['no_learning_signal'])
    const edge = learningSignalRule.minMixedShare
    expect(codes(signalReasons({ samples: 2, mixedShare: edge, signals, profile: null }))).toEqual([])
    expect(codes(signalReasons({ samples: 4, mixedShare: edge - 0.001, signals, profile: null }))).toEqual(['no_learning_signal'])
  })

  it('grading: a constant answer without tools is degenerate and uses no tool; a spread, searching one is neither', () => {
    const labels = ['a|L1', 'b|L2', 'c|L1', 'd|L2']
    const constant = labels.map(() => episode({ answer_valid: true, answer_class: '3|L2' }))
    const signals = gateSignals({ scored: constant, profile: gradingGateProfile, labels })
    expect(signals.answers).toMatchObject({ valid: 4, classes: 1, top_class: '3|L2', top_share: 1, effective_ratio: 0.25 })
    expect(signals.tool_use).toMatchObject({ episodes: 0, share: 0 })
    const reasons = signalReasons({ samples: 2, mixedShare: 0.5, signals, profile: gradingGateProfile })
    expect(codes(reasons)).toEqual(['no_tool_use'])
    const narrower = gateSignals({ scored: constant, profile: gradingGateProfile, labels: [...labels, 'e|L1'] })
    expect(codes(signalReasons({ samples: 2, mixedShare: 0.5, signals: narrower, profile: gradingGateProfile }))).toEqual([
      'no_tool_use',
      'degenerate_answers',
    ])
    const unjudged = gateSignals({ scored: constant, profile: gradingGateProfile })
    expect(signalReasons({ samples: 2, mixedShare: 0.5, signals: unjudged, profile: gradingGateProfile }).at(-1)).toMatchObject({
      code: 'degenerate_answers',
      measured: null,
    })
    const spread = labels.map((label, index) =>
      episode({ answer_valid: true, answer_class: label, valid_calls: index === 0 ? {} : { search_categories: 1 } }),
    )
    const good = gateSignals({ scored: spread, profile: gradingGateProfile, labels })
    expect(good.tool_use?.share).toBe(0.75)
    expect(codes(signalReasons({ samples: 2, mixedShare: 0.5, signals: good, profile: gradingGateProfile }))).toEqual([])
  })

  it('the Arena: shipping blind is no evidence use, and mostly unsafe ships fail', () => {
    const blind = [
      episode({ outcome: 'unsafe_ship', valid_calls: { approve_proposal: 3 } }),
      episode({ outcome: 'unsafe_ship', valid_calls: { approve_proposal: 3 } }),
      episode({ outcome: 'safe_ship', valid_calls: { approve_proposal: 3 } }),
    ]
    const signals = gateSignals({ scored: blind, profile: arenaGateProfile })
    expect(signals.ships).toEqual({ ships: 3, safe: 1, unsafe: 2, unsafe_share: 0.666667 })
    expect(codes(signalReasons({ samples: 2, mixedShare: 0.3, signals, profile: arenaGateProfile }))).toEqual([
      'no_evidence_use',
      'unsafe_ships',
    ])
    const reader = [
      episode({ outcome: 'safe_ship', valid_calls: { inspect_ci_run: 2, approve_proposal: 3 } }),
      episode({ outcome: null, valid_calls: { inspect_ticket: 1 } }),
    ]
    const read = gateSignals({ scored: reader, profile: arenaGateProfile })
    expect(codes(signalReasons({ samples: 2, mixedShare: 0.3, signals: read, profile: arenaGateProfile }))).toEqual([])
  })

  it('profiles by env id', () => {
    expect(gateProfileFor('grading-v1')).toBe(gradingGateProfile)
    expect(gateProfileFor('releaseops-v3')).toBe(arenaGateProfile)
    expect(gateProfileFor('releaseops-v1')).toBeNull()
  })
})
