/**
 * @module chat/formats: the schema-level repair of the json-tool-calls format. An argument whose JSON type
 * does not match its property schema is converted when the conversion is unambiguous (`"5"` → 5 for an
 * integer, `"TRUE"` → true, 17 → "17" for a string, `"s2"` → `"S2"` for an enum); each conversion is a
 * counted repair. Anything else is left for the env to reject.
 */
import type { JsonObject, JsonValue } from '../../core/json/json-value.js'
import type { ParseIssue } from '../chat-format.js'
import type { ChatTool } from '../chat-message.js'
import { convertParameter, schemaTypes } from './schema-value.js'

function jsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}

function fits(value: unknown, types: readonly string[]): boolean {
  const type = jsonType(value)
  return types.includes(type) || (type === 'integer' && types.includes('number'))
}

function enumMatch(value: unknown, schema: unknown): unknown {
  const options = (schema as { enum?: unknown[] } | undefined)?.enum
  if (!Array.isArray(options) || typeof value !== 'string' || options.includes(value)) return undefined
  const matches = options.filter((option) => typeof option === 'string' && option.toLowerCase() === value.trim().toLowerCase())
  return matches.length === 1 ? matches[0] : undefined
}

export function coerceArguments(options: { args: JsonObject; tool: ChatTool | undefined; path: string }): {
  args: JsonObject
  issues: ParseIssue[]
} {
  const properties = (options.tool?.function.parameters as { properties?: Record<string, unknown> } | undefined)?.properties
  if (!properties) return { args: options.args, issues: [] }
  const issues: ParseIssue[] = []
  const args: JsonObject = {}
  for (const [key, value] of Object.entries(options.args)) {
    const schema = Object.hasOwn(properties, key) ? properties[key] : undefined
    const types = schemaTypes(schema)
    let result: unknown = value
    const enumValue = enumMatch(value, schema)
    if (enumValue !== undefined) {
      result = enumValue
    } else if (types.length > 0 && !fits(value, types)) {
      if (typeof value === 'string') {
        const converted = convertParameter(value, schema)
        if (converted.ok && converted.value !== value) result = converted.value
      } else if ((typeof value === 'number' || typeof value === 'boolean') && types.includes('string')) {
        result = String(value)
      }
    }
    if (result !== value) {
      issues.push({
        code: 'coerced_argument',
        path: `${options.path}.${key}`,
        message: `Argument ${key} was ${JSON.stringify(value)}; converted to ${JSON.stringify(result)} for its schema.`,
        repaired: true,
      })
    }
    args[key] = result as JsonValue
  }
  return { args, issues }
}
