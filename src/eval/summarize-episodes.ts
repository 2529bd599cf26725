/**
 * @module eval: aggregates episode outcomes into summary blocks. Means are summed in row order and
 * rounded like Python's `round(x, 3)`, so the original's tables reproduce exactly.
 */
import type { EpisodeOutcome } from '../core/env/env-dataset.js'
import type { JsonObject } from '../core/json/json-value.js'
import { pythonRound } from '../core/python/python-round.js'
import { clusteredInterval, type RowTally } from './clustered-interval.js'
import { wilsonInterval } from './wilson-interval.js'

export interface SummarizedEpisode {
  reward: number
  outcome: EpisodeOutcome
  /** The dataset row the episode played: episodes of one row are one cluster (default: each its own row). */
  cluster?: number | string
}

export type SummaryBlock = JsonObject & { count: number; avg_reward: number }

const round3 = (value: number) => pythonRound(value, 3)

function mean(values: readonly number[]): number {
  let total = 0
  for (const value of values) total += value
  return values.length === 0 ? 0 : total / values.length
}

/**
 * `{count, avg_reward, <rate>_rate…, avg_<value>…, ci95: {<rate>_rate: [low, high]}, ci95_basis}`. Key sets
 * come from the first episode's outcome so every block of one run has the same columns. Intervals are
 * clustered by row (see clustered-interval.ts): `ci95_basis` says how many distinct rows they rest on.
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
  const effective: JsonObject = {}
  const rows = episodes.some((episode) => episode.cluster !== undefined) ? rowsOf(episodes) : undefined
  const repeated = rows !== undefined && rows.length < episodes.length
  for (const rate of keys.rates) {
    if (!repeated) {
      // One episode per row: the plain Wilson interval (what clusteredInterval gives, without the grouping).
      const successes = episodes.reduce((total, episode) => total + (episode.outcome.rates[rate] ? 1 : 0), 0)
      block[`${rate}_rate`] = round3(episodes.length === 0 ? 0 : successes / episodes.length)
      const interval = wilsonInterval(successes, episodes.length)
      intervals[`${rate}_rate`] = interval === null ? null : [round3(interval[0]), round3(interval[1])]
      continue
    }
    const tallies: RowTally[] = rows.map((members) => ({
      trials: members.length,
      successes: members.reduce((total, episode) => total + (episode.outcome.rates[rate] ? 1 : 0), 0),
    }))
    const successes = tallies.reduce((total, tally) => total + tally.successes, 0)
    block[`${rate}_rate`] = round3(episodes.length === 0 ? 0 : successes / episodes.length)
    const clustered = clusteredInterval(tallies)
    const interval = clustered.interval
    intervals[`${rate}_rate`] = interval === null ? null : [round3(interval[0]), round3(interval[1])]
    effective[`${rate}_rate`] = round3(clustered.effective_n)
  }
  for (const value of keys.values) {
    block[`avg_${value}`] = round3(mean(episodes.map((episode) => episode.outcome.values[value] ?? 0)))
  }
  block.ci95 = intervals
  block.ci95_basis = {
    method: repeated ? 'wilson_row_clustered' : 'wilson',
    rows: rows?.length ?? episodes.length,
    episodes: episodes.length,
    ...(repeated ? { effective_n: effective } : {}),
  }
  return block
}

/** Episodes grouped by the row they played, in first-seen order (an episode without a row is its own). */
function rowsOf(episodes: readonly SummarizedEpisode[]): SummarizedEpisode[][] {
  const byRow = new Map<number | string, SummarizedEpisode[]>()
  const rows: SummarizedEpisode[][] = []
  for (const episode of episodes) {
    if (episode.cluster === undefined) {
      rows.push([episode])
      continue
    }
    let members = byRow.get(episode.cluster)
    if (!members) {
      members = []
      byRow.set(episode.cluster, members)
      rows.push(members)
    }
    members.push(episode)
  }
  return rows
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
