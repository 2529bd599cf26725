/**
 * @module release/parquet: whole files of rows whose shape varies (null stage-specific fields, nested
 * structs, lists of structs): written with `NestedParquetWriter` (hyparquet-writer) and read back with
 * hyparquet's own reader, an implementation independent of the writer, normalised to the columns' shape.
 */
import { readFileSync } from 'node:fs'
import type { SchemaElement } from 'hyparquet'
import { parquetMetadata, parquetReadObjects } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'
import { sha256Hex } from '../../io/sha256.js'
import { NestedParquetWriter } from './nested-parquet-writer.js'
import type { ParquetField, ParquetShape } from './parquet-shape.js'

/** Rows as read, the file's hash and its top-level column names (in file order). */
export interface ParquetRows {
  rows: Record<string, unknown>[]
  sha256: string
  columnNames: string[]
}

/** Writes `rows` (objects keyed by column name) to `path` (which must not exist); returns the file's SHA-256. */
export function writeParquetRows(options: {
  path: string
  columns: readonly ParquetField[]
  rows: readonly Record<string, unknown>[]
}): string {
  const writer = new NestedParquetWriter(options.path, options.columns)
  try {
    for (const row of options.rows) writer.add(row)
    return writer.finish()
  } catch (error) {
    writer.abandon()
    throw error
  }
}

/** Absent nested keys (hyparquet leaves out null lists) become null; INT64 values become numbers. */
function normalize(value: unknown, shape: ParquetShape): unknown {
  if (value === null || value === undefined) return null
  switch (shape.kind) {
    case 'int64':
      return typeof value === 'bigint' ? Number(value) : value
    case 'struct': {
      if (typeof value !== 'object' || Array.isArray(value)) return value
      const record = value as Record<string, unknown>
      const result: Record<string, unknown> = {}
      for (const field of shape.fields) result[field.name] = normalize(record[field.name], field.shape)
      for (const key of Object.keys(record)) if (!(key in result)) result[key] = record[key]
      return result
    }
    case 'list':
      return Array.isArray(value) ? value.map((item) => normalize(item, shape.element)) : value
    default:
      return value
  }
}

/**
 * Reads every row of a file. With `columns`, nested values are normalised to that shape (missing keys →
 * null); unknown columns are kept as read, so a validator still sees them.
 */
export async function readParquetRows(path: string, columns?: readonly ParquetField[]): Promise<ParquetRows> {
  const bytes = readFileSync(path)
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
  const metadata = parquetMetadata(file)
  const columnNames: string[] = []
  let index = 1
  while (index < metadata.schema.length) {
    columnNames.push((metadata.schema[index] as SchemaElement).name)
    index = skipSubtree(metadata.schema, index)
  }
  const rows = (await parquetReadObjects({ file, metadata, compressors })) as Record<string, unknown>[]
  const byName = new Map((columns ?? []).map((column) => [column.name, column.shape]))
  const normalized = byName.size === 0 ? rows : rows.map((row) => normalizeRow(row, byName))
  return { rows: normalized, sha256: sha256Hex(bytes), columnNames }
}

function normalizeRow(row: Record<string, unknown>, byName: ReadonlyMap<string, ParquetShape>): Record<string, unknown> {
  const result: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(row)) {
    const shape = byName.get(name)
    result[name] = shape ? normalize(value, shape) : value
  }
  return result
}

/** The index just past the subtree rooted at `index` of a flattened schema. */
function skipSubtree(schema: readonly SchemaElement[], index: number): number {
  let next = index + 1
  for (let child = 0; child < ((schema[index] as SchemaElement).num_children ?? 0); child++) next = skipSubtree(schema, next)
  return next
}
