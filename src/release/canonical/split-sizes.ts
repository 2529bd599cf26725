/** @module release/canonical: split sizes from ratios, and the evenly interleaved label sequence a random split deals (pure). */

/** Largest-remainder sizes that sum to `total`; train gets at least one item. */
export function allocateSizes(total: number, ratios: readonly number[]): number[] {
  const raw = ratios.map((ratio) => total * ratio)
  const sizes = raw.map(Math.floor)
  const order = raw
    .map((value, index) => ({ index, remainder: value - Math.floor(value) }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index)
  for (let left = total - sizes.reduce((sum, size) => sum + size, 0), position = 0; left > 0; left--, position++) {
    const index = (order[position % order.length] as { index: number }).index
    sizes[index] = (sizes[index] as number) + 1
  }
  if (total > 0 && sizes[0] === 0) {
    const donor = sizes[1]! >= sizes[2]! ? 1 : 2
    sizes[donor] = (sizes[donor] as number) - 1
    sizes[0] = 1
  }
  return sizes
}

/** A label sequence with exactly `sizes[s]` of each split, spread as evenly as possible. */
export function interleavedLabels(sizes: readonly number[]): number[] {
  const total = sizes.reduce((sum, size) => sum + size, 0)
  const given = sizes.map(() => 0)
  const labels = new Array<number>(total)
  for (let position = 1; position <= total; position++) {
    let best = -1
    let bestLag = Number.NEGATIVE_INFINITY
    for (let index = 0; index < sizes.length; index++) {
      const size = sizes[index] as number
      if ((given[index] as number) >= size) continue
      const lag = (size * position) / total - (given[index] as number)
      if (lag > bestLag + 1e-12) {
        best = index
        bestLag = lag
      }
    }
    given[best] = (given[best] as number) + 1
    labels[position - 1] = best
  }
  return labels
}
