/**
 * @module eval/gate: what the gate report counts over its episodes, each part alone: outcomes per prompt,
 * parse failures, answers, tool calls, the infrastructure faults of unscored episodes, and token usage.
 */
import type { GateEpisode } from './gate-episode.js'

/** Each value with how often it occurs, keys sorted. */
export function tally(values: readonly string[]): Record<string, number> {
  const result: Record<string, number> = {}
  for (const value of [...values].sort()) result[value] = (result[value] ?? 0) + 1
  return result
}

/** Each row's successes, in episode order, keyed by the row's index. */
export function outcomesByPrompt(scored: readonly GateEpisode[]): Map<string, boolean[]> {
  const byPrompt = new Map<string, boolean[]>()
  for (const episode of scored)
    byPrompt.set(`${episode.row_index}`, [...(byPrompt.get(`${episode.row_index}`) ?? []), episode.success])
  return byPrompt
}

/** Episodes that lost a tool call to the chat format or ended with an invalid answer, with the codes why. */
export function parseFailureCounts(scored: readonly GateEpisode[]) {
  const answerCodes = scored.flatMap((episode) =>
    episode.answer_valid === false && episode.answer_code ? [`answer:${episode.answer_code}`] : [],
  )
  return {
    episodes: scored.filter((episode) => episode.parse_issue_turns > 0 || episode.answer_valid === false).length,
    tool_call_turns: scored.reduce((sum, episode) => sum + episode.parse_issue_turns, 0),
    final_answer_invalid: scored.filter((episode) => episode.answer_valid === false).length,
    by_code: tally([...scored.flatMap((episode) => episode.parse_issue_codes), ...answerCodes]),
  }
}

export function answerCounts(scored: readonly GateEpisode[]) {
  return {
    valid: scored.filter((episode) => episode.answer_valid === true).length,
    invalid: scored.filter((episode) => episode.answer_valid === false).length,
    missing: scored.filter((episode) => episode.answer_valid === null).length,
  }
}

export function toolCallCounts(scored: readonly GateEpisode[]) {
  const total = scored.reduce((sum, episode) => sum + episode.tool_calls, 0)
  return {
    total,
    per_episode: scored.length === 0 ? 0 : Math.round((total / scored.length) * 1000) / 1000,
    invalid: scored.reduce((sum, episode) => sum + episode.invalid_tool_calls, 0),
  }
}

/** Unscored episodes, their faults by code (or end), and the first fault in full. */
export function infrastructureCounts(unscored: readonly GateEpisode[]) {
  return {
    unscored_episodes: unscored.length,
    faults: tally(unscored.map((episode) => episode.fault?.code ?? episode.end)),
    ...(unscored[0]?.fault ? { first_fault: unscored[0].fault } : {}),
  }
}

/** Tokens over every episode, unscored ones included (they were paid for). */
export function usageTotals(episodes: readonly GateEpisode[]) {
  return {
    prompt_tokens: episodes.reduce((sum, episode) => sum + episode.usage.prompt_tokens, 0),
    completion_tokens: episodes.reduce((sum, episode) => sum + episode.usage.completion_tokens, 0),
  }
}
