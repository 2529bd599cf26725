/**
 * @module release/canonical: records in ascending id order (UTF-16 code units, as Python compares str).
 * Sorting the id strings natively and mapping back is several times faster than a comparator sort.
 */
export function sortById<T extends { id: string }>(items: readonly T[]): T[] {
  const byId = new Map<string, T>()
  for (const item of items) byId.set(item.id, item)
  if (byId.size !== items.length) return [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  const ids = [...byId.keys()].sort()
  return ids.map((id) => byId.get(id) as T)
}
