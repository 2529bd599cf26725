/**
 * @module release/mixtures: which sources a mixture holds and in what order (pure). Sources of each
 * dataset are ordered by sha256(dataset ␀ source_id); a dataset contributing `target` episodes takes them
 * cyclically from that order, replica `cycle` of a source getting the id
 * `mix:<dataset>:<sha256(source_id)[:20]>:<cycle:04d>`. The rows of a split are then ordered by
 * sha256(split ␀ id ␀ stage). Same inputs ⇒ same ids and order, whatever the input paths or row order.
 */
import { createHash } from 'node:crypto'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'

export const samplingPolicies = ['passthrough', 'sqrt'] as const
export type SamplingPolicy = (typeof samplingPolicies)[number]

export function mixtureHash(...parts: readonly string[]): string {
  return createHash('sha256').update(parts.join('\u0000'), 'utf8').digest('hex')
}

export function mixtureId(options: { dataset: string; sourceId: string; cycle: number }): string {
  return `mix:${options.dataset}:${mixtureHash(options.sourceId).slice(0, 20)}:${String(options.cycle).padStart(4, '0')}`
}

export const mixtureIdPattern = /^mix:([a-z][a-z0-9_-]{0,63}):([0-9a-f]{20}):(\d{4})$/

/**
 * Episodes per dataset. Passthrough keeps every source once. `sqrt` (train only) reweights datasets by the
 * square root of their size at the same total: T·√n_d / Σ√n_j, apportioned by largest remainder (ties by
 * dataset name), at least one each; small datasets are replicated, large ones subsampled.
 */
export function mixtureTargets(options: {
  counts: Readonly<Record<string, number>>
  policy: SamplingPolicy
  split: string
}): Record<string, number> {
  const names = Object.keys(options.counts).sort()
  if (options.policy === 'passthrough' || options.split !== 'train' || names.length < 2) {
    return Object.fromEntries(names.map((name) => [name, options.counts[name] as number]))
  }
  const total = names.reduce((sum, name) => sum + (options.counts[name] as number), 0)
  const roots = names.map((name) => Math.sqrt(options.counts[name] as number))
  const rootSum = roots.reduce((sum, value) => sum + value, 0)
  const raw = roots.map((root) => (total * root) / rootSum)
  const floors = raw.map((value) => Math.max(1, Math.floor(value)))
  let remaining = total - floors.reduce((sum, value) => sum + value, 0)
  const order = raw
    .map((value, index) => ({ index, remainder: value - Math.floor(value) }))
    .sort((left, right) => right.remainder - left.remainder || left.index - right.index)
  for (const { index } of order) {
    if (remaining <= 0) break
    floors[index] = (floors[index] as number) + 1
    remaining--
  }
  return Object.fromEntries(names.map((name, index) => [name, floors[index] as number]))
}

export interface PlannedEpisode {
  dataset: string
  sourceId: string
  cycle: number
  id: string
}

/** The episodes of one dataset: `target` of them, cycling through its hash-ordered sources. */
export function planDatasetEpisodes(options: {
  dataset: string
  sourceIds: readonly string[]
  target: number
}): PlannedEpisode[] {
  const sources = [...new Set(options.sourceIds)].sort((left, right) => {
    const leftHash = mixtureHash(options.dataset, left)
    const rightHash = mixtureHash(options.dataset, right)
    return leftHash < rightHash ? -1 : leftHash > rightHash ? 1 : left < right ? -1 : left > right ? 1 : 0
  })
  if (sources.length === 0) return []
  const episodes: PlannedEpisode[] = []
  const seen = new Set<string>()
  for (let index = 0; index < options.target; index++) {
    const sourceId = sources[index % sources.length] as string
    const cycle = Math.floor(index / sources.length)
    if (cycle > 9999) throw new RangeError('a mixture replicates a source more than 9,999 times')
    const id = mixtureId({ dataset: options.dataset, sourceId, cycle })
    if (seen.has(id)) {
      throw new InvalidInputError({
        code: 'mixture_id_collision',
        message: `Two sources of ${options.dataset} share the mixture id ${id} (a 20-hex-digit sha256 prefix collision).`,
        issues: [{ code: 'mixture_id_collision', path: options.dataset, message: id }],
      })
    }
    seen.add(id)
    episodes.push({ dataset: options.dataset, sourceId, cycle, id })
  }
  return episodes
}

/** Sorts a split's rows by sha256(split ␀ id ␀ stage). */
export function sortMixtureRows<T>(options: {
  split: string
  rows: readonly T[]
  key: (row: T) => { id: string; stage: string }
}): T[] {
  const keyed = options.rows.map((row) => {
    const { id, stage } = options.key(row)
    return { row, sortKey: mixtureHash(options.split, id, stage) }
  })
  keyed.sort((left, right) => (left.sortKey < right.sortKey ? -1 : left.sortKey > right.sortKey ? 1 : 0))
  return keyed.map((item) => item.row)
}

/** Achieved weight of each dataset (its share of the split's episodes), rounded to 6 places. */
export function achievedWeights(targets: Readonly<Record<string, number>>): Record<string, number> {
  const total = Object.values(targets).reduce((sum, value) => sum + value, 0)
  return Object.fromEntries(
    Object.entries(targets).map(([name, count]) => [name, total === 0 ? 0 : Math.round((count / total) * 1e6) / 1e6]),
  )
}
