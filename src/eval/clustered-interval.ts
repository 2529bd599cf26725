/**
 * @module eval: a rate's 95% interval when a row may be played more than once (`eval --repeat`, a model's
 * `--samples k`). Episodes of one row are not independent trials: a deterministic policy repeats the same
 * outcome, a model's samples of one row are correlated. The interval is Wilson's, computed on an effective
 * number of trials: n / deff, where the design effect deff is the row-clustered (ratio-estimator) variance
 * of the rate over the binomial one, never below 1 (a repeat never counts for more than a fresh row).
 *
 * - One episode per row: deff = 1 exactly, the plain Wilson interval over the episodes.
 * - Every row's episodes agree (a deterministic policy repeated): deff = episodes per row, so the interval
 *   is Wilson's over the distinct rows, however many repeats were run.
 * - A rate of 0 or 1 has no variance to measure deff from: the interval rests on the distinct rows (the
 *   most the data can vouch for).
 */
import { wilsonInterval } from './wilson-interval.js'

/** One row's episodes: how many, and how many had the outcome. */
export interface RowTally {
  trials: number
  successes: number
}

export interface ClusteredInterval {
  interval: [number, number] | null
  /** Distinct rows the interval rests on. */
  rows: number
  episodes: number
  /** Trials the interval counts (the episodes over the design effect). */
  effective_n: number
}

/** Strips float noise so that n / deff lands on the whole number it equals (e.g. exactly the row count). */
const clean = (value: number) => Math.round(value * 1e9) / 1e9

export function clusteredInterval(tallies: readonly RowTally[]): ClusteredInterval {
  const rowsWithEpisodes = tallies.filter((tally) => tally.trials > 0)
  const rows = rowsWithEpisodes.length
  let episodes = 0
  let successes = 0
  for (const tally of rowsWithEpisodes) {
    episodes += tally.trials
    successes += tally.successes
  }
  if (episodes === 0) return { interval: null, rows: 0, episodes: 0, effective_n: 0 }
  if (rows === episodes) return { interval: wilsonInterval(successes, episodes), rows, episodes, effective_n: episodes }
  const rate = successes / episodes
  let effective = rows
  if (rate > 0 && rate < 1) {
    let spread = 0
    for (const tally of rowsWithEpisodes) spread += (tally.successes - rate * tally.trials) ** 2
    const clusteredVariance = spread / (episodes * episodes)
    const binomialVariance = (rate * (1 - rate)) / episodes
    const designEffect = Math.max(1, clusteredVariance / binomialVariance)
    effective = clean(episodes / designEffect)
  }
  return { interval: wilsonInterval(rate * effective, effective), rows, episodes, effective_n: effective }
}
