/**
 * @module eval: `eval compare a b`: pair two runs' episodes by row (and sample), and for every metric of
 * the summary (reward, each rate, each average) report a's mean, b's, the difference b − a with a paired
 * bootstrap 95% interval (rows resampled), and for every rate an exact McNemar test; overall, per split
 * and per family (or any row field).
 */
import type { ComparedEpisode, ComparedRun } from './load-compared-run.js'
import { type McNemarResult, mcnemarExact } from './mcnemar-test.js'
import { bootstrapDraws, pairedBootstrap } from './paired-bootstrap.js'

export interface MetricComparison {
  metric: string
  a: number
  b: number
  /** b − a. */
  diff: number
  ci95: [number, number] | null
  mcnemar?: McNemarResult
}

export interface SliceComparison {
  slice: string
  pairs: number
  rows: number
  metrics: MetricComparison[]
}

export interface Comparison {
  a: { label: string; path: string; policy: string; episodes: number; unscored: number }
  b: { label: string; path: string; policy: string; episodes: number; unscored: number }
  pairs: number
  unpaired: { a: number; b: number }
  bootstrap: { resamples: number; seed: number; unit: 'row'; interval: 'percentile' }
  slices: SliceComparison[]
}

type Pair = [ComparedEpisode, ComparedEpisode]

const round = (value: number, digits = 4) => Math.round(value * 10 ** digits) / 10 ** digits

interface MetricSpec {
  name: string
  value: (episode: ComparedEpisode) => number
  rate?: string
}

function metricSpecs(pairs: readonly Pair[]): MetricSpec[] {
  const first = pairs[0]
  if (!first) return []
  const shared = (keys: (episode: ComparedEpisode) => string[]) => keys(first[0]).filter((key) => keys(first[1]).includes(key))
  return [
    { name: 'avg_reward', value: (episode) => episode.reward },
    ...shared((episode) => Object.keys(episode.rates)).map((rate) => ({
      name: `${rate}_rate`,
      rate,
      value: (episode: ComparedEpisode) => (episode.rates[rate] ? 1 : 0),
    })),
    ...shared((episode) => Object.keys(episode.values)).map((key) => ({
      name: `avg_${key}`,
      value: (episode: ComparedEpisode) => episode.values[key] ?? 0,
    })),
  ]
}

function compareSlice(options: {
  slice: string
  pairs: readonly Pair[]
  specs: readonly MetricSpec[]
  resamples: number
  seed: number
}): SliceComparison {
  const clusters = new Map<string, Pair[]>()
  for (const pair of options.pairs) clusters.set(pair[0].row, [...(clusters.get(pair[0].row) ?? []), pair])
  const grouped = [...clusters.values()]
  const draws = bootstrapDraws({ clusterCount: grouped.length, resamples: options.resamples, seed: options.seed })
  const count = options.pairs.length
  const metrics = options.specs.map((spec) => {
    const a = options.pairs.reduce((total, [left]) => total + spec.value(left), 0) / count
    const b = options.pairs.reduce((total, [, right]) => total + spec.value(right), 0) / count
    const interval = pairedBootstrap(
      grouped.map((cluster) => cluster.map(([left, right]) => spec.value(right) - spec.value(left))),
      draws,
    )
    const comparison: MetricComparison = {
      metric: spec.name,
      a: round(a),
      b: round(b),
      diff: round(b - a),
      ci95: interval ? [round(interval.low), round(interval.high)] : null,
    }
    if (spec.rate !== undefined) {
      const rate = spec.rate
      const test = mcnemarExact(
        options.pairs.map(([left, right]) => [left.rates[rate] === true, right.rates[rate] === true] as const),
      )
      comparison.mcnemar = { ...test, p_value: round(test.p_value, 6) }
    }
    return comparison
  })
  return { slice: options.slice, pairs: count, rows: grouped.length, metrics }
}

export function compareRuns(options: {
  a: ComparedRun
  b: ComparedRun
  groupBy?: readonly string[]
  resamples?: number
  seed?: number
}): Comparison {
  const resamples = options.resamples ?? 10_000
  const seed = options.seed ?? 0
  const byKey = new Map(options.b.episodes.map((episode) => [episode.key, episode]))
  const pairs: Pair[] = []
  for (const episode of options.a.episodes) {
    const other = byKey.get(episode.key)
    if (other) pairs.push([episode, other])
  }
  const specs = metricSpecs(pairs)
  const slices: SliceComparison[] = pairs.length === 0 ? [] : [compareSlice({ slice: 'overall', pairs, specs, resamples, seed })]
  for (const group of options.groupBy ?? ['split', 'family']) {
    const values = [
      ...new Set(
        pairs
          .map(([left]) => left.fields[group])
          .filter((value) => value !== undefined && value !== null)
          .map(String),
      ),
    ]
    for (const value of values) {
      const subset = pairs.filter(([left]) => String(left.fields[group]) === value)
      slices.push(compareSlice({ slice: `${group}=${value}`, pairs: subset, specs, resamples, seed }))
    }
  }
  const side = (run: ComparedRun) => ({
    label: run.label,
    path: run.path,
    policy: run.policy,
    episodes: run.episodes.length,
    unscored: run.unscored,
  })
  return {
    a: side(options.a),
    b: side(options.b),
    pairs: pairs.length,
    unpaired: { a: options.a.episodes.length - pairs.length, b: options.b.episodes.length - pairs.length },
    bootstrap: { resamples, seed, unit: 'row', interval: 'percentile' },
    slices,
  }
}
