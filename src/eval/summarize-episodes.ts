/**
 * @module eval: aggregates episode outcomes into summary blocks. Means are summed in row order and
 * rounded like Python's `round(x, 3)`, so the original's tables reproduce exactly.
 */
import type { EpisodeOutcome } from '../core/env/env-dataset.js'
import type { JsonObject } from '../core/json/json-value.js'
import { pythonRound } from '../core/python/python-round.js'
import { wilsonInterval } from './wilson-interval.js'

export interface SummarizedEpisode {
  reward: number
  outcome: EpisodeOutcome
}

export type SummaryBlock = JsonObject & { count: number; avg_reward: number }

const round3 = (value: number) => pythonRound(value, 3)

function mean(values: readonly number[]): number {
  let total = 0
  for (const value of values) total += value
  return values.length === 0 ? 0 : total / values.length
}

/**
 * `{count, avg_reward, <rate>_rate…, avg_<value>…, ci95: {<rate>_rate: [low, high]}}`. Key sets come from
 * the first episode's outcome so every block of one run has the same columns.
 */
export function summarizeEpisodes(
  episodes: readonly SummarizedEpisode[],
  keys: { rates: readonly string[]; values: readonly string[] },
): SummaryBlock {
  const block: SummaryBlock = {
    count: episodes.length,
    avg_reward: round3(mean(episodes.map((episode) => episode.reward))),
  }
  const intervals: JsonObject = {}
  for (const rate of keys.rates) {
    const successes = episodes.reduce((total, episode) => total + (episode.outcome.rates[rate] ? 1 : 0), 0)
    block[`${rate}_rate`] = round3(episodes.length === 0 ? 0 : successes / episodes.length)
    const interval = wilsonInterval(successes, episodes.length)
    intervals[`${rate}_rate`] = interval === null ? null : [round3(interval[0]), round3(interval[1])]
  }
  for (const value of keys.values) {
    block[`avg_${value}`] = round3(mean(episodes.map((episode) => episode.outcome.values[value] ?? 0)))
  }
  block.ci95 = intervals
  return block
}

/** Outcome keys of a run, in first-seen order. */
export function outcomeKeys(episodes: readonly SummarizedEpisode[]): { rates: string[]; values: string[] } {
  const rates = new Set<string>()
  const values = new Set<string>()
  for (const episode of episodes) {
    for (const key of Object.keys(episode.outcome.rates)) rates.add(key)
    for (const key of Object.keys(episode.outcome.values)) values.add(key)
  }
  return { rates: [...rates], values: [...values] }
}
