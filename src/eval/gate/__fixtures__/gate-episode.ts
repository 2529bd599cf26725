/** A scored gate episode with every count at zero, for tests to change only the fields they are about. */
import type { GateEpisode } from '../gate-episode.js'

export function gateEpisode(fields: Partial<GateEpisode>): GateEpisode {
  return {
    row_index: 0,
    sample: 0,
    key: 'k',
    dataset: null,
    status: 'scored',
    reward: 0,
    success: false,
    end: 'terminated',
    turns: 1,
    tool_calls: 0,
    invalid_tool_calls: 0,
    answer_valid: null,
    answer_code: null,
    parse_issue_turns: 0,
    parse_issue_codes: [],
    valid_calls: {},
    answer_class: null,
    outcome: null,
    usage: { prompt_tokens: 0, completion_tokens: 0 },
    ...fields,
  }
}
