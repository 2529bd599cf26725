/**
 * @module release/trajectories: a fast yes/no check of the row schema, compiled from the zod schema's own
 * JSON Schema (so zod stays the single source). Validation runs it on every row; zod runs only on rows it
 * refuses, to say why. Zod's parse builds a full copy of each row, which was about a fifth of the
 * validator's time. Only the JSON Schema subset our row schema uses compiles; anything else throws at
 * compile time (a schema change then fails loudly in the tests instead of checking less).
 */
import { z } from 'zod'
import { InternalInvariantError } from '../../core/errors/internal-invariant-error.js'

type Check = (value: unknown) => boolean

export interface JsonSchema {
  type?: string
  properties?: Record<string, JsonSchema>
  required?: string[]
  additionalProperties?: boolean | JsonSchema
  propertyNames?: JsonSchema
  items?: JsonSchema
  minItems?: number
  minLength?: number
  const?: unknown
  enum?: unknown[]
  oneOf?: JsonSchema[]
  anyOf?: JsonSchema[]
}

const known = new Set([
  '$schema',
  'type',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'items',
  'minItems',
  'minLength',
  'const',
  'enum',
  'oneOf',
  'anyOf',
])

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** A required key whose `const` differs in every variant (a discriminated union's tag), if there is one. */
function discriminatorOf(variants: readonly JsonSchema[]): string | undefined {
  const first = variants[0]
  if (!first?.properties) return undefined
  return Object.keys(first.properties).find((key) => {
    const values = variants.map((variant) => variant.properties?.[key])
    if (!values.every((property) => property && 'const' in property)) return false
    if (!variants.every((variant) => variant.required?.includes(key))) return false
    return new Set(values.map((property) => property?.const)).size === variants.length
  })
}

/** One of the variants (`oneOf`/`anyOf`): by the tag when they have one, else exactly one must match. */
export function variantsCheck(variants: readonly JsonSchema[], path: string): Check {
  const compiled = variants.map((variant, index) => compile(variant, `${path}|${index}`))
  const discriminator = discriminatorOf(variants)
  if (discriminator) {
    // Each variant requires a distinct const at this key, so a value can only match the one it names.
    const byValue = new Map(
      variants.map((variant, index) => [variant.properties?.[discriminator]?.const, compiled[index] as Check]),
    )
    return (value) => {
      const check = isObject(value) ? byValue.get(value[discriminator]) : undefined
      return check?.(value) === true
    }
  }
  return (value) => {
    let matches = 0
    for (const check of compiled) if (check(value)) matches++
    return matches === 1
  }
}

function arrayCheck(schema: JsonSchema, path: string): Check {
  const items = schema.items ? compile(schema.items, `${path}[]`) : () => true
  const minimum = schema.minItems ?? 0
  return (value) => {
    if (!Array.isArray(value) || value.length < minimum) return false
    for (const item of value) if (!items(item)) return false
    return true
  }
}

/** An object: required keys present, each named property valid, other keys as `additionalProperties` says. */
export function objectCheck(schema: JsonSchema, path: string): Check {
  const properties = Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    check: compile(property, `${path}.${name}`),
  }))
  const required = schema.required ?? []
  const named = new Set(properties.map((property) => property.name))
  const extra = schema.additionalProperties
  const other: Check | undefined =
    extra === false ? undefined : extra === true || extra === undefined ? () => true : compile(extra, `${path}.*`)
  if (schema.propertyNames && schema.propertyNames.type !== 'string')
    throw new InternalInvariantError(`compiled row check: ${path} has non-string propertyNames`)
  return (value) => {
    if (!isObject(value)) return false
    for (const key of required) if (value[key] === undefined) return false
    for (const property of properties) {
      const item = value[property.name]
      if (item !== undefined && !property.check(item)) return false
    }
    for (const key in value) {
      if (named.has(key)) continue
      if (!other?.(value[key])) return false
    }
    return true
  }
}

/** The check of `schema.type`, undefined when the schema names none. */
function typeCheck(schema: JsonSchema, path: string): Check | undefined {
  switch (schema.type) {
    case undefined:
      return undefined
    case 'string': {
      const minimum = schema.minLength ?? 0
      return (value) => typeof value === 'string' && value.length >= minimum
    }
    case 'boolean':
      return (value) => typeof value === 'boolean'
    case 'integer':
      return (value) => Number.isSafeInteger(value)
    case 'array':
      return arrayCheck(schema, path)
    case 'object':
      return objectCheck(schema, path)
    default:
      throw new InternalInvariantError(`compiled row check: ${path} has unsupported type ${schema.type}`)
  }
}

function compile(schema: JsonSchema, path: string): Check {
  for (const key of Object.keys(schema))
    if (!known.has(key)) throw new InternalInvariantError(`compiled row check: ${path} uses unsupported keyword ${key}`)
  const checks: Check[] = []
  const variants = schema.oneOf ?? schema.anyOf
  if (variants) checks.push(variantsCheck(variants, path))
  const type = typeCheck(schema, path)
  if (type) checks.push(type)
  if ('const' in schema) checks.push((value) => value === schema.const)
  if (schema.enum) {
    const allowed = new Set(schema.enum)
    checks.push((value) => allowed.has(value))
  }
  if (checks.length === 1) return checks[0] as Check
  return (value) => {
    for (const check of checks) if (!check(value)) return false
    return true
  }
}

/** A yes/no check equivalent to `schema.safeParse(value).success` for the JSON values rows hold. */
export function compileRowCheck(schema: z.ZodType): Check {
  return compile(z.toJSONSchema(schema, { io: 'output' }) as JsonSchema, '$')
}
