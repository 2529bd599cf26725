/**
 * @module release/canonical: seeded train/val/test assignment of resolved canonical records (pure).
 *
 * The pool is sorted by id first, so row order never matters. `random` is stratified by (category_id,
 * level): strata are shuffled, items shuffled within them, and the concatenation is dealt along one evenly
 * interleaved label sequence with exact split sizes — every stratum gets its share ±1. `group` keeps every
 * value of a dotted group key (e.g. `metadata.table_name`) in one split. In a random split, records that
 * share a prompt key (copies of a table in other databases show the same prompt) follow the first of them
 * in id order, so no prompt is in two splits. Then a category or level that train lacks gets its first
 * record moved there (`train-coverage.ts`; a train record goes the other way). Other records get
 * `split: null` and a reason.
 */
import { PythonRandom } from '../../core/python/python-random.js'
import { type CanonicalRecord, type SplitName, splitNames } from '../contracts/canonical-record.js'
import { PromptKeys } from './prompt-key.js'
import { sortByKey } from './sort-by-key.js'
import { allocateSizes, interleavedLabels } from './split-sizes.js'
import { type CoverageMove, keepEveryLabelInTrain, tooSmallForValTest, trainLacksLabels } from './train-coverage.js'

export { allocateSizes, interleavedLabels } from './split-sizes.js'

const splitAlgorithmVersion = 'releaseops-split-v3'

export interface SplitOptions {
  splitType: 'random' | 'group'
  groupKey?: string
  ratios: readonly [number, number, number]
  seed: number
  levelField: string
}

export interface SplitReport {
  format: 'canonical-split-report-v1'
  algorithm_version: string
  split_type: 'random' | 'group'
  group_key?: string
  seed: number
  ratios: Record<SplitName, number>
  order_rule: 'id-ascending'
  input_size: number
  included_size: number
  sizes: Record<SplitName, number>
  excluded: { count: number; by_reason: Record<string, number>; ids: string[] }
  /** Records moved to the split of an earlier record with the same prompt key (random splits). */
  joined_by_prompt_key: number
  /** Prompt keys whose records lie in more than one split (0 for random splits). */
  cross_split_prompt_keys: number
  distributions: { category_id: Record<SplitName, Record<string, number>>; level: Record<SplitName, Record<string, number>> }
  /** Labels train lacks after the split (a group split cannot move records), and the moves that filled it. */
  train_coverage: { missing_categories: string[]; missing_levels: string[]; moves: CoverageMove[] }
  /** Categories with fewer records than splits: never in all three. */
  too_small_for_val_test: { category_id: string; records: number }[]
}

function groupValue(record: object, path: string): string {
  let value: unknown = record
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return ''
    value = (value as Record<string, unknown>)[part]
  }
  return value === null || value === undefined ? '' : String(value).trim()
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** Pool records of one (category, level): the random split's stratum, and a cell of the distributions. */
interface Stratum {
  /** `category\0level`, the order strata are shuffled from. */
  text: string
  category: string
  level: string
  /** Positions in the pool. */
  members: number[]
}

function strataOf(pool: readonly CanonicalRecord[], levelField: string): Stratum[] {
  const strata = new Map<string, Stratum>()
  for (let index = 0; index < pool.length; index++) {
    const record = pool[index] as CanonicalRecord
    const level = String((record as Record<string, unknown>)[levelField] ?? '')
    const text = `${record.target?.category_id}\u0000${level}`
    const stratum = strata.get(text)
    if (stratum) stratum.members.push(index)
    else strata.set(text, { text, category: record.target?.category_id ?? '', level, members: [index] })
  }
  return [...strata.values()]
}

function dealRandom(pool: CanonicalRecord[], strata: readonly Stratum[], options: SplitOptions, rng: PythonRandom): number[] {
  const ordered = [...strata].sort((a, b) => compareText(a.text, b.text)).map((stratum) => [...stratum.members])
  rng.shuffle(ordered)
  for (const members of ordered) rng.shuffle(members)
  const labels = interleavedLabels(allocateSizes(pool.length, options.ratios))
  const assignment = new Array<number>(pool.length)
  let position = 0
  for (const members of ordered) for (const index of members) assignment[index] = labels[position++] as number
  return assignment
}

/**
 * Moves every pool record to the split of the first one (in pool order) with its prompt key; returns how
 * many moved. Keys are computed in file order (`included`), where a table's fields follow one another.
 */
function joinPromptKeys(
  pool: { records: readonly CanonicalRecord[]; included: readonly number[]; order: readonly number[] },
  assignment: number[],
): number {
  const { records, included, order } = pool
  const keys = new PromptKeys()
  const keyOf = new Float64Array(records.length)
  for (const index of included) keyOf[index] = keys.of((records[index] as CanonicalRecord).metadata)
  const first = new Map<number, number>()
  let moved = 0
  for (let position = 0; position < order.length; position++) {
    const key = keyOf[order[position] as number] as number
    const earlier = first.get(key)
    if (earlier === undefined) first.set(key, position)
    else if (assignment[position] !== assignment[earlier]) {
      assignment[position] = assignment[earlier] as number
      moved++
    }
  }
  return moved
}

/** How many prompt keys have records in more than one split. */
function crossingKeys(pool: CanonicalRecord[], assignment: number[]): number {
  const keys = new PromptKeys()
  const splitOf = new Map<number, number>()
  pool.forEach((record, index) => {
    const key = keys.of(record.metadata)
    const seen = splitOf.get(key)
    if (seen === undefined) splitOf.set(key, assignment[index] as number)
    else if (seen !== assignment[index]) splitOf.set(key, -1)
  })
  let count = 0
  for (const value of splitOf.values()) if (value === -1) count++
  return count
}

function dealGroups(pool: CanonicalRecord[], options: SplitOptions, rng: PythonRandom): number[] {
  const groups = new Map<string, number[]>()
  pool.forEach((record, index) => {
    const key = groupValue(record, options.groupKey as string)
    const members = groups.get(key) ?? []
    members.push(index)
    groups.set(key, members)
  })
  const ordered = [...groups.keys()].sort(compareText).map((key) => groups.get(key) as number[])
  rng.shuffle(ordered)
  const targets = options.ratios.map((ratio) => ratio * pool.length)
  const sizes = [0, 0, 0]
  const active = [0, 1, 2].filter((index) => (options.ratios[index] as number) > 0)
  const assignment = new Array<number>(pool.length)
  ordered.forEach((members, position) => {
    let chosen = active[position]
    if (chosen === undefined) {
      chosen = active.reduce((best, index) =>
        (targets[index] as number) - (sizes[index] as number) > (targets[best] as number) - (sizes[best] as number)
          ? index
          : best,
      )
    }
    sizes[chosen] = (sizes[chosen] as number) + members.length
    for (const index of members) assignment[index] = chosen
  })
  return assignment
}

type Distribution = Record<SplitName, Record<string, number>>

/** Records per split by category and by level, counted stratum by stratum. */
function distributions(strata: readonly Stratum[], assignment: readonly number[]) {
  const byCategory = splitNames.map(() => new Map<string, number>())
  const byLevel = splitNames.map(() => new Map<string, number>())
  for (const stratum of strata) {
    const counts = [0, 0, 0]
    for (const index of stratum.members) counts[assignment[index] as number] = (counts[assignment[index] as number] as number) + 1
    counts.forEach((count, split) => {
      if (count === 0) return
      const categories = byCategory[split] as Map<string, number>
      const levels = byLevel[split] as Map<string, number>
      categories.set(stratum.category, (categories.get(stratum.category) ?? 0) + count)
      levels.set(stratum.level, (levels.get(stratum.level) ?? 0) + count)
    })
  }
  const sorted = (maps: Map<string, number>[]) =>
    Object.fromEntries(
      splitNames.map((split, index) => [
        split,
        Object.fromEntries([...(maps[index] as Map<string, number>)].sort(([a], [b]) => compareText(a, b))),
      ]),
    ) as Distribution
  return { category_id: sorted(byCategory), level: sorted(byLevel) }
}

/** Assigns splits to a copy of `records` (same order as given; the given records are left as they are) and reports what happened. */
export function splitRecords(
  records: readonly CanonicalRecord[],
  options: SplitOptions,
): { records: CanonicalRecord[]; report: SplitReport } {
  const rng = new PythonRandom(options.seed)
  const excluded: { id: string; reason: string }[] = []
  const reasons: (string | null)[] = new Array(records.length).fill(null)
  const included: number[] = []
  records.forEach((record, index) => {
    let reason: string | null = null
    if (record.resolution_status !== 'resolved') reason = `resolution_status:${record.resolution_status}`
    else if (options.splitType === 'group' && !groupValue(record, options.groupKey as string))
      reason = `empty_group_key:${options.groupKey}`
    if (reason) {
      excluded.push({ id: record.id, reason })
      reasons[index] = reason
    } else included.push(index)
  })
  // Positions in `records` of the pool, in id order.
  const order = sortByKey(included, (index) => (records[index] as CanonicalRecord).id)
  const pool = order.map((index) => records[index] as CanonicalRecord)
  const strata = strataOf(pool, options.levelField)
  const assignment = options.splitType === 'random' ? dealRandom(pool, strata, options, rng) : dealGroups(pool, options, rng)
  const joined = options.splitType === 'random' ? joinPromptKeys({ records, included, order }, assignment) : 0
  const coverage = { records: pool, levelField: options.levelField }
  const moves =
    options.splitType === 'random' && trainLacksLabels(strata, assignment) ? keepEveryLabelInTrain(coverage, assignment) : []
  const crossing = options.splitType === 'random' ? 0 : crossingKeys(pool, assignment)
  const splits: (SplitName | null)[] = new Array(records.length).fill(null)
  order.forEach((index, position) => {
    splits[index] = splitNames[assignment[position] as number] as SplitName
  })
  const output = records.map((record, index) => {
    // Copied, then updated: V8 builds `{ ...record, more }` far more slowly.
    const target = Object.assign({}, record)
    target.split = splits[index] ?? null
    target.split_exclusion_reason = reasons[index] ?? null
    return target
  })
  const byReason = new Map<string, number>()
  for (const { reason } of excluded) byReason.set(reason, (byReason.get(reason) ?? 0) + 1)
  const { category_id: categories, level: levels } = distributions(strata, assignment)
  const later = (dist: Distribution) =>
    [...new Set([...Object.keys(dist.val), ...Object.keys(dist.test)])].filter((key) => !(key in dist.train)).sort(compareText)
  const sizes = { train: 0, val: 0, test: 0 }
  for (const split of splits) if (split) sizes[split]++
  return {
    records: output,
    report: {
      format: 'canonical-split-report-v1',
      algorithm_version: splitAlgorithmVersion,
      split_type: options.splitType,
      ...(options.splitType === 'group' ? { group_key: options.groupKey as string } : {}),
      seed: options.seed,
      ratios: { train: options.ratios[0], val: options.ratios[1], test: options.ratios[2] },
      order_rule: 'id-ascending',
      input_size: records.length,
      included_size: pool.length,
      sizes,
      excluded: {
        count: excluded.length,
        by_reason: Object.fromEntries([...byReason].sort(([a], [b]) => compareText(a, b))),
        ids: excluded.map((item) => item.id),
      },
      joined_by_prompt_key: joined,
      cross_split_prompt_keys: crossing,
      distributions: { category_id: categories, level: levels },
      train_coverage: { missing_categories: later(categories), missing_levels: later(levels), moves },
      too_small_for_val_test: tooSmallForValTest(coverage),
    },
  }
}
