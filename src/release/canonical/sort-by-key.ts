/**
 * @module release/canonical: items in ascending key order (UTF-16 code units, as Python compares str).
 * Record ids are UUIDs: ids that open with eight lowercase hex digits are ordered by the number those
 * digits spell (packed with the item's index into one float, sorted natively), and only ids sharing that
 * prefix are compared as strings. Other keys sort their strings natively and map back.
 */

const hexHead = /^[0-9a-f]{8}/
const indexBits = 2 ** 20
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** `items` ordered by `keyOf(item)`, stably (equal keys keep their order). */
export function sortByKey<T>(items: readonly T[], keyOf: (item: T) => string): T[] {
  const keys = items.map(keyOf)
  let sorted = true
  for (let index = 1; index < keys.length && sorted; index++) sorted = (keys[index - 1] as string) <= (keys[index] as string)
  if (sorted) return items.slice()
  if (items.length < indexBits && keys.every((key) => hexHead.test(key))) return sortByHexHead(items, keys)
  const byKey = new Map<string, T>()
  for (const [index, key] of keys.entries()) byKey.set(key, items[index] as T)
  if (byKey.size !== items.length) {
    const order = keys.map((_, index) => index).sort((a, b) => compareText(keys[a] as string, keys[b] as string))
    return order.map((index) => items[index] as T)
  }
  return [...byKey.keys()].sort().map((key) => byKey.get(key) as T)
}

/** The number the first eight (lowercase hex) characters spell. */
function hexHead8(key: string): number {
  let value = 0
  for (let index = 0; index < 8; index++) {
    const code = key.charCodeAt(index)
    value = value * 16 + (code <= 0x39 ? code - 0x30 : code - 0x57)
  }
  return value
}

function sortByHexHead<T>(items: readonly T[], keys: readonly string[]): T[] {
  // head * 2^20 + index < 2^52: exact in a double, so a numeric sort orders by head, then by index.
  const packed = new Float64Array(keys.length)
  for (let index = 0; index < keys.length; index++) packed[index] = hexHead8(keys[index] as string) * indexBits + index
  packed.sort()
  const order = new Array<number>(keys.length)
  for (let position = 0; position < packed.length; position++) order[position] = (packed[position] as number) % indexBits
  // Runs of equal heads (rare) are ordered by their whole keys.
  const headOf = (position: number) => Math.floor((packed[position] as number) / indexBits)
  for (let start = 0; start < order.length; ) {
    let end = start + 1
    while (end < order.length && headOf(end) === headOf(start)) end++
    if (end - start > 1) {
      const run = order.slice(start, end).sort((a, b) => compareText(keys[a] as string, keys[b] as string))
      for (let offset = 0; offset < run.length; offset++) order[start + offset] = run[offset] as number
    }
    start = end
  }
  return order.map((index) => items[index] as T)
}
