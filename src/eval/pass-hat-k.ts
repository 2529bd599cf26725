/**
 * @module eval: pass^k (tau-bench): for a row with n trials and c successes, the chance that k trials
 * drawn without replacement all succeed, C(c, k) / C(n, k), averaged over rows with at least k trials.
 */

/** C(c, k) / C(n, k) as a product, exact enough for any n an eval runs. */
export function passHatKForRow(trials: number, successes: number, k: number): number {
  if (k > trials) throw new RangeError(`pass^${k} needs at least ${k} trials, got ${trials}.`)
  if (successes < k) return 0
  let value = 1
  for (let index = 0; index < k; index++) value *= (successes - index) / (trials - index)
  return value
}

/** `{"pass^1": …, …, "pass^k": …}` over rows (each row: its trials' successes), rows with < k trials left out of that k. */
export function passHatK(rows: readonly (readonly boolean[])[], maxK: number): Record<string, number | null> {
  const result: Record<string, number | null> = {}
  for (let k = 1; k <= maxK; k++) {
    const eligible = rows.filter((trials) => trials.length >= k)
    result[`pass^${k}`] =
      eligible.length === 0
        ? null
        : eligible.reduce((total, trials) => total + passHatKForRow(trials.length, trials.filter(Boolean).length, k), 0) /
          eligible.length
  }
  return result
}
