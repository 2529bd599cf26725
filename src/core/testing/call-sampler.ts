/**
 * @module core/testing: random tool calls for fuzzing any env from its tool schemas. Strings are
 * drawn from the observation's own string values, so many calls hit real ids and are valid.
 */
import type { EnvSpec, ToolCall } from '../env/env-api.js'
import type { PythonRandom } from '../python/python-random.js'
import { toolParametersSchema } from '../tools/define-tool.js'

type JsonSchema = {
  type?: string
  enum?: unknown[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
}

/** Every string leaf of a JSON value (ids, names, enum-like values the env shows). */
export function harvestStrings(value: unknown, into: Set<string> = new Set(), depth = 0): Set<string> {
  if (depth > 12 || into.size > 500) return into
  if (typeof value === 'string') {
    if (value.length <= 80) into.add(value)
  } else if (Array.isArray(value)) {
    for (const item of value) harvestStrings(item, into, depth + 1)
  } else if (value && typeof value === 'object') {
    for (const item of Object.values(value)) harvestStrings(item, into, depth + 1)
  }
  return into
}

const junkValues: unknown[] = [
  null,
  42,
  -1.5,
  true,
  '',
  ' ',
  'x'.repeat(5000),
  'café ✓ 中文 🙂',
  '\u0000\u001f"\\',
  '../../etc/passwd',
  [],
  ['a'],
  {},
  { nested: { deep: [1, 2, 3] } },
]

export class CallSampler {
  private readonly schemas: Map<string, JsonSchema>

  constructor(
    private readonly spec: EnvSpec,
    private readonly rng: PythonRandom,
  ) {
    this.schemas = new Map(spec.tools.map((tool) => [tool.name, toolParametersSchema(tool) as JsonSchema]))
  }

  private value(schema: JsonSchema | undefined, strings: readonly string[]): unknown {
    const rng = this.rng
    if (schema?.enum && schema.enum.length > 0) return rng.choice(schema.enum)
    switch (schema?.type) {
      case 'integer':
        return rng.randint(-3, 50)
      case 'number':
        return rng.random() * 100
      case 'boolean':
        return rng.randint(0, 1) === 1
      case 'array':
        return [this.value(schema.items, strings)]
      default:
        return strings.length > 0 && rng.random() < 0.85 ? rng.choice(strings) : `id_${rng.randint(0, 9999)}`
    }
  }

  /** A well-formed call (right names and types; values may still be impossible). */
  plausible(observation: unknown): ToolCall {
    const strings = [...harvestStrings(observation)]
    const name = this.rng.choice(this.spec.tools.map((tool) => tool.name))
    const schema = this.schemas.get(name)
    const args: Record<string, unknown> = {}
    for (const [key, property] of Object.entries(schema?.properties ?? {})) args[key] = this.value(property, strings)
    return { name, arguments: args }
  }

  /** A call broken in one of many ways (unknown tool, wrong types, missing or extra keys, bad JSON). */
  malformed(observation: unknown): ToolCall {
    const rng = this.rng
    const base = this.plausible(observation)
    const args = { ...(base.arguments as Record<string, unknown>) }
    const keys = Object.keys(args)
    switch (rng.randint(0, 8)) {
      case 0:
        return { name: rng.choice(['', 'reset', '__proto__', 'constructor', 'unknown_tool', `${base.name}_x`]), arguments: args }
      case 1:
        return {
          name: base.name,
          arguments: rng.choice(junkValues.filter((item) => typeof item !== 'object' || item === null || Array.isArray(item))),
        }
      case 2:
        if (keys.length > 0) delete args[rng.choice(keys)]
        else args.unexpected = 1
        return { name: base.name, arguments: args }
      case 3:
        args[`extra_${rng.randint(0, 9)}`] = rng.choice(junkValues)
        return { name: base.name, arguments: args }
      case 4:
        if (keys.length > 0) args[rng.choice(keys)] = rng.choice(junkValues.filter((item) => typeof item !== 'string'))
        else args.unexpected = 'x'
        return { name: base.name, arguments: args }
      case 5:
        return { name: base.name, arguments: '{"unterminated": ' }
      case 6:
        return { name: rng.choice(junkValues) as string, arguments: args }
      case 7:
        if (keys.length > 0) args[rng.choice(keys)] = rng.choice(['', 'x'.repeat(5000), 'café ✓ 中文 🙂', 'zz_not_an_id'])
        else args.unexpected = ''
        return { name: base.name, arguments: args }
      default:
        return { name: base.name, arguments: JSON.stringify(args).slice(0, -1) }
    }
  }
}
