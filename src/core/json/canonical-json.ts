/**
 * @module core/json: JSON with object keys sorted at every depth and no white space, so equal values give
 * equal text whatever order their keys were built in (for hashes and comparisons). Keys holding
 * `undefined` are left out and a bare `undefined` reads `null`, as `JSON.stringify` treats them.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  const record = value as Record<string, unknown>
  return `{${Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
    .join(',')}}`
}
