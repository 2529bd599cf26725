/**
 * @module release/canonical: a random split that trains on every label (pure). After the seeded deal,
 * a category (or level) with no record in train gets its first record in id order moved there, with every
 * record sharing that record's prompt key (so no prompt straddles splits). Only records with a level count:
 * the releases skip the others. To keep the split sizes, a
 * train record goes the other way: one of the same prompt-group size whose category and level keep a train
 * record without it, from the category with the most train records (the earliest in id order on ties).
 * Nothing moves when train already holds every label, so such splits are the deal's, byte for byte.
 */
import { type CanonicalRecord, type SplitName, splitNames } from '../contracts/canonical-record.js'
import { PromptKeys } from './prompt-key.js'

export interface CoverageMove {
  id: string
  category_id: string
  level: string
  from: SplitName
  to: SplitName
  /** Why: the label train lacked (`category:<id>`, `level:<L>`), or `swap` for the record sent back. */
  reason: string
}

interface Pool {
  records: readonly CanonicalRecord[]
  levelField: string
}

const train = 0

/** Each record's category and level; null for a record without a level, which no release trains on. */
function labelsOf(pool: Pool) {
  const levels = pool.records.map((record) => String((record as Record<string, unknown>)[pool.levelField] ?? '').trim() || null)
  const categories = pool.records.map((record, index) => (levels[index] === null ? null : (record.target?.category_id ?? '')))
  return { categories, levels }
}

type Labels = readonly (string | null)[]

function trainCounts(labels: Labels, assignment: readonly number[]): Map<string, number> {
  const counts = new Map<string, number>()
  labels.forEach((label, index) => {
    if (label === null) return
    if (!counts.has(label)) counts.set(label, 0)
    if (assignment[index] === train) counts.set(label, (counts.get(label) as number) + 1)
  })
  return counts
}

/**
 * Whether train lacks a category or level, counted over the split's strata (category, level, members):
 * the cheap check that leaves a split with every label in train as the deal made it.
 */
export function trainLacksLabels(
  strata: readonly { category: string; level: string; members: readonly number[] }[],
  assignment: readonly number[],
): boolean {
  const categories = new Map<string, boolean>()
  const levels = new Map<string, boolean>()
  for (const { category, level, members } of strata) {
    if (level.trim() === '') continue
    const inTrain = members.some((index) => assignment[index] === train)
    categories.set(category, (categories.get(category) ?? false) || inTrain)
    levels.set(level, (levels.get(level) ?? false) || inTrain)
  }
  return [...categories.values(), ...levels.values()].some((covered) => !covered)
}

/** Moves records so every category and level of the pool has a train record; returns the moves made. */
export function keepEveryLabelInTrain(pool: Pool, assignment: number[]): CoverageMove[] {
  const { categories, levels } = labelsOf(pool)
  const byCategory = trainCounts(categories, assignment)
  const byLevel = trainCounts(levels, assignment)
  const missing = (counts: Map<string, number>) => [...counts].filter(([, count]) => count === 0).map(([label]) => label)
  if (missing(byCategory).length === 0 && missing(byLevel).length === 0) return []
  const keys = new PromptKeys()
  const groups = new Map<number, number[]>()
  pool.records.forEach((record, index) => {
    const key = keys.of(record.metadata)
    const members = groups.get(key)
    if (members) members.push(index)
    else groups.set(key, [index])
  })
  const groupOf = (index: number) => groups.get(keys.of((pool.records[index] as CanonicalRecord).metadata)) as number[]
  const moves: CoverageMove[] = []
  const move = (members: readonly number[], to: number, reason: string) => {
    for (const index of members) {
      const from = assignment[index] as number
      if (from === to) continue
      const delta = to === train ? 1 : from === train ? -1 : 0
      byCategory.set(categories[index] as string, (byCategory.get(categories[index] as string) as number) + delta)
      byLevel.set(levels[index] as string, (byLevel.get(levels[index] as string) as number) + delta)
      assignment[index] = to
      const record = pool.records[index] as CanonicalRecord
      const [fromName, toName] = [splitNames[from], splitNames[to]] as [SplitName, SplitName]
      moves.push({
        id: record.id,
        category_id: categories[index] as string,
        level: levels[index] as string,
        from: fromName,
        to: toName,
        reason,
      })
    }
  }
  const moved = new Set<number[]>()
  for (const [kind, labels, counts] of [
    ['category', categories, byCategory],
    ['level', levels, byLevel],
  ] as const) {
    for (const label of missing(counts)) {
      if ((counts.get(label) as number) > 0) continue
      const group = groupOf(labels.indexOf(label))
      const from = assignment[group[0] as number] as number
      move(group, train, `${kind}:${label}`)
      moved.add(group)
      const donor = chooseDonor({ groups, assignment, moved, size: group.length, categories, levels, byCategory, byLevel })
      if (donor) {
        move(donor, from, 'swap')
        moved.add(donor)
      }
    }
  }
  return moves
}

/** A train prompt group that can leave train: every label it holds keeps a train record without it. */
function chooseDonor(options: {
  groups: ReadonlyMap<number, number[]>
  assignment: readonly number[]
  moved: ReadonlySet<number[]>
  size: number
  categories: Labels
  levels: Labels
  byCategory: ReadonlyMap<string, number>
  byLevel: ReadonlyMap<string, number>
}): number[] | undefined {
  const { categories, levels, byCategory, byLevel } = options
  let best: { members: number[]; score: number } | undefined
  for (const members of options.groups.values()) {
    if (options.moved.has(members) || members.length !== options.size) continue
    if (members.some((index) => options.assignment[index] !== train)) continue
    const keeps = (labels: Labels, counts: ReadonlyMap<string, number>) => {
      const leaving = new Map<string, number>()
      for (const index of members) {
        const label = labels[index]
        if (label !== null && label !== undefined) leaving.set(label, (leaving.get(label) ?? 0) + 1)
      }
      return [...leaving].every(([label, count]) => (counts.get(label) as number) > count)
    }
    if (!keeps(categories, byCategory) || !keeps(levels, byLevel)) continue
    const score = Math.max(0, ...members.map((index) => byCategory.get(categories[index] ?? '') ?? 0))
    if (!best || score > best.score || (score === best.score && (members[0] as number) < (best.members[0] as number)))
      best = { members, score }
  }
  return best?.members
}

/** Categories with fewer records than splits: they cannot be in train, val and test at once. */
export function tooSmallForValTest(pool: Pool): { category_id: string; records: number }[] {
  const counts = new Map<string, number>()
  for (const record of pool.records) {
    const category = record.target?.category_id ?? ''
    counts.set(category, (counts.get(category) ?? 0) + 1)
  }
  return [...counts]
    .filter(([, records]) => records < splitNames.length)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([category_id, records]) => ({ category_id, records }))
}
