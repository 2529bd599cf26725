/**
 * @module eval: the exact McNemar test for paired binary outcomes. Only discordant pairs count: under the
 * null hypothesis "a only" and "b only" are equally likely, so the two-sided p-value is twice the smaller
 * binomial(n, 1/2) tail, capped at 1.
 */

export interface McNemarResult {
  /** Pairs where only a succeeded. */
  a_only: number
  /** Pairs where only b succeeded. */
  b_only: number
  p_value: number
}

/** P(X <= k) for X ~ Binomial(n, 1/2), summed in log space (stable for any eval size). */
function lowerTail(k: number, n: number): number {
  let logCoefficient = 0
  let total = 0
  const logHalfN = n * Math.log(0.5)
  for (let index = 0; index <= k; index++) {
    if (index > 0) logCoefficient += Math.log(n - index + 1) - Math.log(index)
    total += Math.exp(logCoefficient + logHalfN)
  }
  return total
}

export function mcnemarExact(pairs: readonly (readonly [boolean, boolean])[]): McNemarResult {
  let aOnly = 0
  let bOnly = 0
  for (const [a, b] of pairs) {
    if (a && !b) aOnly++
    else if (b && !a) bOnly++
  }
  const discordant = aOnly + bOnly
  const pValue = discordant === 0 ? 1 : Math.min(1, 2 * lowerTail(Math.min(aOnly, bOnly), discordant))
  return { a_only: aOnly, b_only: bOnly, p_value: pValue }
}
