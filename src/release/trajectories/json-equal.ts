/** @module release/trajectories: deep equality of JSON values, key order included (what `JSON.stringify` equality means, without the strings). */
export function jsonEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false
  if (Array.isArray(left)) {
    if (!Array.isArray(right) || left.length !== right.length) return false
    for (let index = 0; index < left.length; index++) if (!jsonEqual(left[index], right[index])) return false
    return true
  }
  if (Array.isArray(right)) return false
  const leftKeys = Object.keys(left)
  const rightKeys = Object.keys(right)
  if (leftKeys.length !== rightKeys.length) return false
  for (let index = 0; index < leftKeys.length; index++) {
    const key = leftKeys[index] as string
    if (key !== rightKeys[index]) return false
    const a = (left as Record<string, unknown>)[key]
    const b = (right as Record<string, unknown>)[key]
    if (a === undefined || b === undefined || !jsonEqual(a, b)) return false
  }
  return true
}
