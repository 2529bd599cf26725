/** @module eval: the Wilson score interval, the 95% bounds every reported rate carries. */

const z95 = 1.959963984540054

/** Bounds for `successes` of `trials` (null when there are no trials). */
export function wilsonInterval(successes: number, trials: number, z = z95): [number, number] | null {
  if (trials <= 0) return null
  const p = successes / trials
  const z2 = z * z
  const denominator = 1 + z2 / trials
  const center = (p + z2 / (2 * trials)) / denominator
  const half = (z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / denominator
  return [Math.max(0, center - half), Math.min(1, center + half)]
}
