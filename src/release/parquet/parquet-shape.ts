/**
 * @module release/parquet: the nested shape of a Parquet column (UTF-8 strings, INT64,
 * booleans, standard 3-level lists, structs with ordered fields; every node nullable), derived from a JSON
 * Schema (what `z.toJSONSchema` gives for our zod row schema) or inferred from a JSON value.
 *
 * A struct holds the ordered union of the keys its objects use. Objects that lack a key read back as
 * null there (pyarrow, DuckDB, datasets all do this), so readers drop null-valued keys to get the
 * object back, in the same key order: merging refuses two objects whose shared keys come in a
 * different order, which would change `tojson` output after a round trip.
 */
import type { SchemaElement } from 'hyparquet'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'

export type ParquetShape =
  | { kind: 'string' }
  | { kind: 'int64' }
  | { kind: 'boolean' }
  | { kind: 'list'; element: ParquetShape }
  | { kind: 'struct'; fields: readonly ParquetField[] }

export interface ParquetField {
  name: string
  shape: ParquetShape
}

/** Shorthands for writing column lists by hand: `struct({ role: shapes.string, content: shapes.string })`. */
export const shapes = {
  string: { kind: 'string' } as ParquetShape,
  int64: { kind: 'int64' } as ParquetShape,
  boolean: { kind: 'boolean' } as ParquetShape,
  list: (element: ParquetShape): ParquetShape => ({ kind: 'list', element }),
  /** A struct whose fields are the entries of `fields`, in order. */
  struct: (fields: Readonly<Record<string, ParquetShape>>): ParquetShape => ({ kind: 'struct', fields: fieldsOf(fields) }),
  /** A struct of UTF-8 strings named `names`, in order. */
  strings: (names: readonly string[]): ParquetShape => ({
    kind: 'struct',
    fields: names.map((name) => ({ name, shape: { kind: 'string' } })),
  }),
}

/** Top-level columns from an ordered record of shapes. */
export function fieldsOf(fields: Readonly<Record<string, ParquetShape>>): ParquetField[] {
  return Object.entries(fields).map(([name, shape]) => ({ name, shape }))
}

function shapeError(path: string, message: string): ReleaseOpsError {
  return new ReleaseOpsError({ code: 'parquet_shape', path, message })
}

function mergeFieldOrder(left: readonly ParquetField[], right: readonly ParquetField[], path: string): ParquetField[] {
  const merged: ParquetField[] = []
  const rightIndex = new Map(right.map((field, index) => [field.name, index]))
  const leftNames = new Set(left.map((field) => field.name))
  let next = 0
  for (const field of left) {
    const at = rightIndex.get(field.name)
    if (at === undefined) {
      merged.push(field)
      continue
    }
    if (at < next) throw shapeError(path, `keys ${field.name} and ${right[next - 1]?.name} come in both orders`)
    for (; next < at; next++) {
      const extra = right[next] as ParquetField
      if (leftNames.has(extra.name)) throw shapeError(path, `key ${extra.name} comes in both orders`)
      merged.push(extra)
    }
    merged.push({ name: field.name, shape: mergeShapes(field.shape, (right[at] as ParquetField).shape, `${path}.${field.name}`) })
    next = at + 1
  }
  for (; next < right.length; next++) merged.push(right[next] as ParquetField)
  return merged
}

/** The ordered union of two shapes; scalar kinds must agree. */
export function mergeShapes(left: ParquetShape, right: ParquetShape, path = '$'): ParquetShape {
  if (left.kind !== right.kind) throw shapeError(path, `a ${left.kind} and a ${right.kind} in one column`)
  if (left.kind === 'list')
    return { kind: 'list', element: mergeShapes(left.element, (right as typeof left).element, `${path}[]`) }
  if (left.kind === 'struct') return { kind: 'struct', fields: mergeFieldOrder(left.fields, (right as typeof left).fields, path) }
  return left
}

type JsonSchema = {
  type?: string
  properties?: Record<string, JsonSchema>
  items?: JsonSchema
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
}

/**
 * The shape of values a JSON Schema admits (objects → structs in property order, unions merged).
 * `overrides` gives the shape at paths the schema leaves open (`$.tools`, `$.messages[].x`).
 */
export function shapeFromJsonSchema(
  schema: JsonSchema,
  options: { path?: string; overrides?: ReadonlyMap<string, ParquetShape> } = {},
): ParquetShape {
  const path = options.path ?? '$'
  const override = options.overrides?.get(path)
  if (override) return override
  const at = (child: JsonSchema, childPath: string) => shapeFromJsonSchema(child, { ...options, path: childPath })
  const variants = schema.anyOf ?? schema.oneOf
  if (variants) {
    const shapes = variants.filter((variant) => variant.type !== 'null').map((variant) => at(variant, path))
    if (shapes.length === 0) throw shapeError(path, 'a union with no non-null member')
    return shapes.reduce((merged, shape) => mergeShapes(merged, shape, path))
  }
  switch (schema.type) {
    case 'string':
      return { kind: 'string' }
    case 'integer':
      return { kind: 'int64' }
    case 'boolean':
      return { kind: 'boolean' }
    case 'array':
      if (!schema.items) throw shapeError(path, 'an array without items')
      return { kind: 'list', element: at(schema.items, `${path}[]`) }
    case 'object':
      return {
        kind: 'struct',
        fields: Object.entries(schema.properties ?? {}).map(([name, property]) => ({
          name,
          shape: at(property, `${path}.${name}`),
        })),
      }
    default:
      throw shapeError(path, `JSON Schema type ${String(schema.type)} has no Parquet shape here`)
  }
}

/** The shape of one JSON value (objects in key order; list elements merged). */
export function shapeOfValue(value: unknown, path = '$'): ParquetShape {
  if (typeof value === 'string') return { kind: 'string' }
  if (typeof value === 'boolean') return { kind: 'boolean' }
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw shapeError(path, `only integers are supported, got ${value}`)
    return { kind: 'int64' }
  }
  if (Array.isArray(value)) {
    if (value.length === 0) throw shapeError(path, 'an empty list has no element shape')
    return {
      kind: 'list',
      element: value.map((item) => shapeOfValue(item, `${path}[]`)).reduce((a, b) => mergeShapes(a, b, path)),
    }
  }
  if (value !== null && typeof value === 'object') {
    return {
      kind: 'struct',
      fields: Object.entries(value).map(([name, item]) => ({ name, shape: shapeOfValue(item, `${path}.${name}`) })),
    }
  }
  throw shapeError(path, `no shape for ${String(value)}`)
}

const utf8 = (name: string): SchemaElement => ({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' })

function elementsOf(name: string, shape: ParquetShape, path: string): SchemaElement[] {
  switch (shape.kind) {
    case 'string':
      return [utf8(name)]
    case 'int64':
      return [{ name, type: 'INT64', repetition_type: 'OPTIONAL' }]
    case 'boolean':
      return [{ name, type: 'BOOLEAN', repetition_type: 'OPTIONAL' }]
    case 'list':
      return [
        { name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        ...elementsOf('element', shape.element, `${path}[]`),
      ]
    case 'struct':
      if (shape.fields.length === 0) throw shapeError(path, 'a struct needs at least one field in Parquet')
      return [
        { name, repetition_type: 'OPTIONAL', num_children: shape.fields.length },
        ...shape.fields.flatMap((field) => elementsOf(field.name, field.shape, `${path}.${field.name}`)),
      ]
  }
}

/** The flat Parquet schema (standard 3-level lists) of top-level columns. */
export function parquetSchemaOf(columns: readonly ParquetField[]): SchemaElement[] {
  return [
    { name: 'root', num_children: columns.length },
    ...columns.flatMap((column) => elementsOf(column.name, column.shape, column.name)),
  ]
}
