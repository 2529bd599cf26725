/**
 * @module chat/formats: turns the text of an XML `<parameter>` into a typed value using the tool's JSON
 * Schema, as vLLM's qwen3_coder parser does: `string` stays raw, `integer`/`number`/`boolean` convert,
 * `object`/`array` decode as JSON (then as a Python literal), `null`/`None` are null for nullable types.
 * A parameter without a schema (unknown tool or parameter) stays the raw string, as in vLLM: guessing a
 * type would hand the env a value no request declared.
 */

export type ConvertedValue = { ok: true; value: unknown } | { ok: false; value: string; expected: string }

/** The JSON types a property schema allows, in declaration order (`type`, `anyOf`, `oneOf`). */
export function schemaTypes(schema: unknown): string[] {
  if (!schema || typeof schema !== 'object') return []
  const record = schema as Record<string, unknown>
  const types: string[] = []
  if (typeof record.type === 'string') types.push(record.type)
  if (Array.isArray(record.type)) for (const type of record.type) if (typeof type === 'string') types.push(type)
  for (const key of ['anyOf', 'oneOf']) {
    const options = record[key]
    if (Array.isArray(options)) for (const option of options) types.push(...schemaTypes(option))
  }
  if (types.length === 0 && Array.isArray(record.enum)) {
    for (const item of record.enum) {
      const type = item === null ? 'null' : typeof item === 'number' ? 'number' : typeof item
      if (!types.includes(type)) types.push(type)
    }
  }
  return types
}

const integerPattern = /^[-+]?\d+$/
const numberPattern = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/

function decodeJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

/** A Python literal (`{'a': True, 'b': None}`) as `ast.literal_eval` would read it, for the common cases. */
function decodePythonLiteral(text: string): { ok: true; value: unknown } | { ok: false } {
  let json = ''
  let index = 0
  while (index < text.length) {
    const character = text[index] as string
    if (character === "'" || character === '"') {
      let end = index + 1
      let body = ''
      while (end < text.length && text[end] !== character) {
        if (text[end] === '\\' && end + 1 < text.length) {
          body += text.slice(end, end + 2)
          end += 2
          continue
        }
        body += text[end]
        end++
      }
      if (end >= text.length) return { ok: false }
      const unescapedQuotes = character === "'" ? body.replaceAll("\\'", "'").replaceAll('"', '\\"') : body
      json += `"${unescapedQuotes}"`
      index = end + 1
      continue
    }
    const word = /^(True|False|None)\b/.exec(text.slice(index))
    if (word) {
      json += word[1] === 'True' ? 'true' : word[1] === 'False' ? 'false' : 'null'
      index += (word[1] as string).length
      continue
    }
    json += character
    index++
  }
  if (text.trim().startsWith('(')) return { ok: false }
  return decodeJson(json.replace(/,\s*([}\]])/g, '$1'))
}

function convertAs(type: string, text: string): { ok: true; value: unknown } | { ok: false } {
  const trimmed = text.trim()
  switch (type) {
    case 'string':
      return { ok: true, value: text }
    case 'integer':
      return integerPattern.test(trimmed) && Number.isSafeInteger(Number(trimmed))
        ? { ok: true, value: Number(trimmed) }
        : { ok: false }
    case 'number':
      return numberPattern.test(trimmed) ? { ok: true, value: Number(trimmed) } : { ok: false }
    case 'boolean': {
      const lowered = trimmed.toLowerCase()
      return lowered === 'true' || lowered === 'false' ? { ok: true, value: lowered === 'true' } : { ok: false }
    }
    case 'null':
      return trimmed === 'null' || trimmed === 'None' ? { ok: true, value: null } : { ok: false }
    case 'object':
    case 'array': {
      const decoded = decodeJson(trimmed)
      const value = decoded.ok ? decoded : decodePythonLiteral(trimmed)
      if (!value.ok) return { ok: false }
      const matches =
        type === 'array'
          ? Array.isArray(value.value)
          : value.value !== null && typeof value.value === 'object' && !Array.isArray(value.value)
      return matches ? value : { ok: false }
    }
    default:
      return { ok: false }
  }
}

export function convertParameter(text: string, schema: unknown): ConvertedValue {
  const types = schemaTypes(schema)
  if (types.length === 0) return { ok: true, value: text }
  // null first (an explicit "None" for a nullable string is null, not the text), string last (it takes anything).
  const ordered = [...types.filter((type) => type === 'null'), ...types.filter((type) => type !== 'null' && type !== 'string')]
  if (types.includes('string')) ordered.push('string')
  for (const type of ordered) {
    const converted = convertAs(type, text)
    if (converted.ok) return converted
  }
  return { ok: false, value: text, expected: types.join(' | ') }
}
