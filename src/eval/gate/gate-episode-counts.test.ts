/** The gate report's counts, each alone, over hand-made episodes. */
import { describe, expect, it } from 'vitest'
import { gateEpisode } from './__fixtures__/gate-episode.js'
import {
  answerCounts,
  infrastructureCounts,
  outcomesByPrompt,
  parseFailureCounts,
  tally,
  toolCallCounts,
  usageTotals,
} from './gate-episode-counts.js'

const episode = gateEpisode

describe('gate episode counts', () => {
  it('tallies values with sorted keys', () => {
    expect(Object.entries(tally(['b', 'a', 'b']))).toEqual([
      ['a', 1],
      ['b', 2],
    ])
  })

  it("groups each row's successes in episode order", () => {
    const byPrompt = outcomesByPrompt([
      episode({ row_index: 1, success: true }),
      episode({ row_index: 0, success: false }),
      episode({ row_index: 1, success: false }),
    ])
    expect([...byPrompt]).toEqual([
      ['1', [true, false]],
      ['0', [false]],
    ])
  })

  it('counts parse failures: lost tool calls and invalid answers, with their codes', () => {
    const counts = parseFailureCounts([
      episode({ parse_issue_turns: 2, parse_issue_codes: ['bad_json', 'bad_json'] }),
      episode({ answer_valid: false, answer_code: 'unknown_choice' }),
      episode({ answer_valid: true }),
    ])
    expect(counts).toEqual({
      episodes: 2,
      tool_call_turns: 2,
      final_answer_invalid: 1,
      by_code: { 'answer:unknown_choice': 1, bad_json: 2 },
    })
  })

  it('counts answers, tool calls (per episode to 3 places) and usage', () => {
    const episodes = [
      episode({ answer_valid: true, tool_calls: 2, usage: { prompt_tokens: 10, completion_tokens: 1 } }),
      episode({ answer_valid: false, tool_calls: 0, invalid_tool_calls: 1, usage: { prompt_tokens: 5, completion_tokens: 2 } }),
      episode({ answer_valid: null, tool_calls: 0 }),
    ]
    expect(answerCounts(episodes)).toEqual({ valid: 1, invalid: 1, missing: 1 })
    expect(toolCallCounts(episodes)).toEqual({ total: 2, per_episode: 0.667, invalid: 1 })
    expect(toolCallCounts([])).toEqual({ total: 0, per_episode: 0, invalid: 0 })
    expect(usageTotals(episodes)).toEqual({ prompt_tokens: 15, completion_tokens: 3 })
  })

  it('counts unscored episodes by fault code (or end) and keeps the first fault', () => {
    const fault = { code: 'endpoint_timeout', message: 'slow' }
    expect(
      infrastructureCounts([
        episode({ status: 'infra_error', end: 'infra_error', fault }),
        episode({ status: 'tool_error', end: 'tool_error' }),
      ]),
    ).toEqual({ unscored_episodes: 2, faults: { endpoint_timeout: 1, tool_error: 1 }, first_fault: fault })
    expect(infrastructureCounts([])).toEqual({ unscored_episodes: 0, faults: {} })
  })
})
