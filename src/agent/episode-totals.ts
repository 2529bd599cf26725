/** @module agent: per-episode totals from the turn and step records. */
import type { AgentEpisodeResult, AgentStepRecord, EpisodeCounts, TurnRecord } from './agent-trajectory.js'

export function episodeCounts(turns: readonly TurnRecord[], steps: readonly AgentStepRecord[]): EpisodeCounts {
  const parseIssues: Record<string, number> = {}
  let repaired = 0
  let lengthStops = 0
  let retries = 0
  for (const turn of turns) {
    repaired += turn.repairs
    if (turn.finish_reason === 'length') lengthStops++
    retries += turn.retried.length
    for (const issue of turn.issues) if (!issue.repaired) parseIssues[issue.code] = (parseIssues[issue.code] ?? 0) + 1
  }
  return {
    turns: turns.length,
    steps: steps.length,
    repaired_actions: repaired,
    parse_issues: parseIssues,
    invalid_actions: steps.filter((step) => step.error !== undefined).length,
    length_stops: lengthStops,
    retries,
  }
}

export function episodeUsage(turns: readonly TurnRecord[]): AgentEpisodeResult['usage'] {
  let prompt = 0
  let completion = 0
  const sources = new Set<string>()
  for (const turn of turns) {
    if (!turn.usage) continue
    prompt += turn.usage.prompt_tokens
    completion += turn.usage.completion_tokens
    sources.add(turn.usage.source)
  }
  const source =
    sources.size === 0 ? 'none' : sources.size > 1 ? 'mixed' : (([...sources][0] as 'endpoint' | 'tokenizer') ?? 'none')
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, source }
}
