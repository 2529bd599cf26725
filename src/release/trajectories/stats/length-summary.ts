/** @module release/trajectories/stats: max, p95 (nearest rank) and mean of a list of lengths. */
export interface LengthSummary {
  max: number
  p95: number
  mean: number
}

export function summarizeLengths(values: readonly number[]): LengthSummary {
  if (values.length === 0) return { max: 0, p95: 0, mean: 0 }
  const sorted = Float64Array.from(values).sort()
  const total = values.reduce((sum, value) => sum + value, 0)
  return {
    max: sorted[sorted.length - 1] as number,
    p95: sorted[Math.ceil(0.95 * sorted.length) - 1] as number,
    mean: Math.round((total / values.length) * 100) / 100,
  }
}
