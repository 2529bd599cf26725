/** @module core/json: the JSON value types every observation, info and state is made of. */

export type JsonPrimitive = string | number | boolean | null
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue }
export type JsonObject = { [key: string]: JsonValue }

/** True when `value` survives JSON.stringify/parse unchanged (no undefined, functions, NaN, cycles, classes). */
export function isJsonValue(value: unknown, seen: Set<object> = new Set()): value is JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true
  if (typeof value === 'number') return Number.isFinite(value)
  if (typeof value !== 'object') return false
  if (seen.has(value)) return false
  seen.add(value)
  try {
    if (Array.isArray(value)) return value.every((item) => isJsonValue(item, seen))
    const prototype = Object.getPrototypeOf(value)
    if (prototype !== Object.prototype && prototype !== null) return false
    return Object.values(value).every((item) => isJsonValue(item, seen))
  } finally {
    seen.delete(value)
  }
}
