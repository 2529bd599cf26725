/** @module eval: latency percentiles (linear interpolation between closest ranks, numpy's default). */

export function percentile(sorted: readonly number[], fraction: number): number | null {
  if (sorted.length === 0) return null
  const position = (sorted.length - 1) * fraction
  const lower = Math.floor(position)
  const upper = Math.ceil(position)
  const low = sorted[lower] as number
  return low + ((sorted[upper] as number) - low) * (position - lower)
}

export interface LatencySummary {
  count: number
  mean: number | null
  p50: number | null
  p90: number | null
  p99: number | null
  max: number | null
}

const round1 = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10)

export function latencySummary(values: readonly number[]): LatencySummary {
  const sorted = [...values].sort((left, right) => left - right)
  const mean = sorted.length === 0 ? null : sorted.reduce((total, value) => total + value, 0) / sorted.length
  return {
    count: sorted.length,
    mean: round1(mean),
    p50: round1(percentile(sorted, 0.5)),
    p90: round1(percentile(sorted, 0.9)),
    p99: round1(percentile(sorted, 0.99)),
    max: round1(sorted.at(-1) ?? null),
  }
}
