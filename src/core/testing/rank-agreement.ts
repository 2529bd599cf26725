/**
 * @module core/testing: rank agreement between two scores of the same items: Spearman's rho (Pearson's
 * correlation of the ranks, ties given their average rank) and Kendall's tau-b (concordant minus
 * discordant pairs over the pairs that are not tied, as tau-b counts them). Both are 1 when the two
 * orders agree, -1 when one reverses the other, and null when either score is constant.
 */

/** 1-based ranks, ties sharing their average rank. */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((value, index) => ({ value, index })).sort((left, right) => left.value - right.value)
  const ranks = new Array<number>(values.length)
  for (let start = 0; start < order.length; ) {
    let end = start
    while (end + 1 < order.length && order[end + 1]?.value === order[start]?.value) end++
    const rank = (start + end) / 2 + 1
    for (let position = start; position <= end; position++) ranks[(order[position] as { index: number }).index] = rank
    start = end + 1
  }
  return ranks
}

function pearson(x: readonly number[], y: readonly number[]): number | null {
  const n = x.length
  if (n < 2) return null
  const mean = (values: readonly number[]) => values.reduce((total, value) => total + value, 0) / n
  const mx = mean(x)
  const my = mean(y)
  let sxy = 0
  let sxx = 0
  let syy = 0
  for (let index = 0; index < n; index++) {
    const dx = (x[index] as number) - mx
    const dy = (y[index] as number) - my
    sxy += dx * dy
    sxx += dx * dx
    syy += dy * dy
  }
  return sxx === 0 || syy === 0 ? null : sxy / Math.sqrt(sxx * syy)
}

export function spearmanRho(x: readonly number[], y: readonly number[]): number | null {
  if (x.length !== y.length) throw new RangeError('spearmanRho needs two scores of the same items')
  return pearson(averageRanks(x), averageRanks(y))
}

export function kendallTauB(x: readonly number[], y: readonly number[]): number | null {
  if (x.length !== y.length) throw new RangeError('kendallTauB needs two scores of the same items')
  let concordant = 0
  let discordant = 0
  let tiedX = 0
  let tiedY = 0
  for (let i = 0; i < x.length; i++)
    for (let j = i + 1; j < x.length; j++) {
      const dx = Math.sign((x[i] as number) - (x[j] as number))
      const dy = Math.sign((y[i] as number) - (y[j] as number))
      if (dx === 0 && dy === 0) continue
      if (dx === 0) tiedX++
      else if (dy === 0) tiedY++
      else if (dx === dy) concordant++
      else discordant++
    }
  const denominator = Math.sqrt((concordant + discordant + tiedX) * (concordant + discordant + tiedY))
  return denominator === 0 ? null : (concordant - discordant) / denominator
}
