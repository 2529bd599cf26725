/**
 * @module eval: a paired bootstrap 95% interval for the difference of two runs' means. Pairs are grouped
 * in clusters (a dataset row with all its samples): each resample draws whole rows with replacement, so
 * several samples of one row are not counted as independent evidence. The draws are seeded and shared by
 * every metric of a slice: the same inputs give the same intervals.
 */
import { PythonRandom } from '../core/python/python-random.js'

export interface BootstrapDraws {
  clusterCount: number
  resamples: number
  /** `resamples × clusterCount` cluster indices. */
  indices: Uint32Array
}

export function bootstrapDraws(options: { clusterCount: number; resamples: number; seed: number }): BootstrapDraws {
  const random = new PythonRandom(options.seed)
  const indices = new Uint32Array(options.resamples * options.clusterCount)
  for (let position = 0; position < indices.length; position++) indices[position] = random.randbelow(options.clusterCount)
  return { clusterCount: options.clusterCount, resamples: options.resamples, indices }
}

export interface BootstrapInterval {
  low: number
  high: number
}

/** `clusters[i]` holds row i's per-pair differences (b − a); the 2.5th and 97.5th percentiles of the mean. */
export function pairedBootstrap(clusters: readonly (readonly number[])[], draws: BootstrapDraws): BootstrapInterval | null {
  if (clusters.length === 0 || clusters.length !== draws.clusterCount) return null
  const sums = Float64Array.from(clusters, (cluster) => cluster.reduce((total, value) => total + value, 0))
  const sizes = Float64Array.from(clusters, (cluster) => cluster.length)
  const means = new Float64Array(draws.resamples)
  for (let draw = 0; draw < draws.resamples; draw++) {
    let total = 0
    let size = 0
    const offset = draw * draws.clusterCount
    for (let pick = 0; pick < draws.clusterCount; pick++) {
      const index = draws.indices[offset + pick] as number
      total += sums[index] as number
      size += sizes[index] as number
    }
    means[draw] = size === 0 ? 0 : total / size
  }
  means.sort()
  const at = (fraction: number) => {
    const position = (means.length - 1) * fraction
    const lower = Math.floor(position)
    const upper = Math.ceil(position)
    return (means[lower] as number) + ((means[upper] as number) - (means[lower] as number)) * (position - lower)
  }
  return { low: at(0.025), high: at(0.975) }
}
