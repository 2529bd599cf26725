/**
 * @module eval: n rows of a split spread over its slices, for an eval that does not run them all (the
 * dashboard's default job). A split's first rows are one slice (`eval` starts with its 300 `eval_seen`
 * rows), so a prefix measures that slice alone; this takes rows in turn from every value of the first
 * group key (split), within each in turn from every value of the next (family), and so on; rows keep
 * their dataset order within a leaf, and the result keeps dataset order.
 */
import type { DatasetRow } from '../core/env/env-dataset.js'

interface Indexed {
  row: DatasetRow
  index: number
}

/** The rows in an order whose every prefix is spread evenly over the keys' values, level by level. */
function interleave(rows: readonly Indexed[], keys: readonly string[]): Indexed[] {
  const [key, ...rest] = keys
  if (key === undefined || rows.length <= 1) return [...rows]
  const groups = new Map<string, Indexed[]>()
  for (const item of rows) {
    const value = String(item.row[key] ?? '')
    const group = groups.get(value) ?? []
    group.push(item)
    groups.set(value, group)
  }
  const queues = [...groups.values()].map((group) => interleave(group, rest))
  const merged: Indexed[] = []
  for (let position = 0; merged.length < rows.length; position++)
    for (const queue of queues) if (position < queue.length) merged.push(queue[position] as Indexed)
  return merged
}

/** `count` rows spread over the values of `keys` (all rows when count covers them), in dataset order. */
export function stratifiedRows(rows: readonly DatasetRow[], count: number, keys: readonly string[]): DatasetRow[] {
  if (count >= rows.length) return [...rows]
  const chosen = interleave(
    rows.map((row, index) => ({ row, index })),
    keys,
  ).slice(0, count)
  return chosen.sort((left, right) => left.index - right.index).map((item) => item.row)
}
