/**
 * @module release/rl: Parquet files whose rows vary in shape (null stage-specific fields, nested structs,
 * lists of structs), written with hyparquet-writer's row-shredding writer and read back with hyparquet.
 * Deterministic: explicit schema, fixed row-group size, no statistics, BROTLI quality 1 (node:zlib), a
 * fixed `created_by`; the same rows always give the same bytes.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { brotliCompressSync, constants } from 'node:zlib'
import type { SchemaElement } from 'hyparquet'
import { parquetMetadata, parquetReadObjects } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { sha256Hex } from '../io/sha256.js'

/** A node of an explicit nested schema. */
export type NestedField =
  | { name: string; kind: 'string' }
  | { name: string; kind: 'int' }
  | { name: string; kind: 'boolean' }
  | { name: string; kind: 'string_list' }
  | { name: string; kind: 'struct'; fields: readonly NestedField[] }
  | { name: string; kind: 'struct_list'; fields: readonly NestedField[] }

const rowGroupRows = 8192
export const nestedParquetCreatedBy = 'releaseops nested writer'

function leaf(name: string, type: 'BYTE_ARRAY' | 'INT64' | 'BOOLEAN'): SchemaElement {
  return type === 'BYTE_ARRAY'
    ? { name, type, converted_type: 'UTF8', repetition_type: 'OPTIONAL' }
    : { name, type, repetition_type: 'OPTIONAL' }
}

function elements(field: NestedField): SchemaElement[] {
  switch (field.kind) {
    case 'string':
      return [leaf(field.name, 'BYTE_ARRAY')]
    case 'int':
      return [leaf(field.name, 'INT64')]
    case 'boolean':
      return [leaf(field.name, 'BOOLEAN')]
    case 'string_list':
      return [
        { name: field.name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        leaf('element', 'BYTE_ARRAY'),
      ]
    case 'struct':
      return [
        { name: field.name, repetition_type: 'OPTIONAL', num_children: field.fields.length },
        ...field.fields.flatMap(elements),
      ]
    case 'struct_list':
      return [
        { name: field.name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        { name: 'element', repetition_type: 'OPTIONAL', num_children: field.fields.length },
        ...field.fields.flatMap(elements),
      ]
  }
}

/** The flattened Parquet schema (standard 3-level LISTs) of top-level columns. */
export function nestedParquetSchema(columns: readonly NestedField[]): SchemaElement[] {
  return [{ name: 'root', num_children: columns.length }, ...columns.flatMap(elements)]
}

function brotli(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(
    brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }),
  )
}

/** Integer fields become BigInt for INT64 leaves (hyparquet-writer's contract). */
function toWritable(value: unknown, field: NestedField): unknown {
  if (value === null || value === undefined) return null
  switch (field.kind) {
    case 'int':
      return BigInt(value as number)
    case 'struct': {
      const record = value as Record<string, unknown>
      return Object.fromEntries(field.fields.map((child) => [child.name, toWritable(record[child.name], child)]))
    }
    case 'struct_list':
      return (value as unknown[]).map((item) => toWritable(item, { ...field, kind: 'struct' }))
    default:
      return value
  }
}

/** Writes `rows` (objects keyed by column name) to `path`; returns the file's SHA-256. */
export function writeNestedParquet(options: {
  path: string
  columns: readonly NestedField[]
  rows: readonly Record<string, unknown>[]
}): string {
  const bytes = new Uint8Array(
    parquetWriteBuffer({
      columnData: options.columns.map((column) => ({
        name: column.name,
        data: options.rows.map((row) => toWritable(row[column.name], column)),
      })),
      schema: nestedParquetSchema(options.columns),
      codec: 'BROTLI',
      compressors: { BROTLI: brotli },
      statistics: false,
      rowGroupSize: rowGroupRows,
      createdBy: nestedParquetCreatedBy,
    }),
  )
  writeFileSync(options.path, bytes, { flag: 'wx' })
  return sha256Hex(bytes)
}

/** Absent nested keys (hyparquet leaves out null lists) become null; INT64 values become numbers. */
function normalize(value: unknown, field: NestedField): unknown {
  if (value === null || value === undefined) return null
  switch (field.kind) {
    case 'int':
      return typeof value === 'bigint' ? Number(value) : value
    case 'struct': {
      if (typeof value !== 'object' || Array.isArray(value)) return value
      const record = value as Record<string, unknown>
      const result: Record<string, unknown> = {}
      for (const child of field.fields) result[child.name] = normalize(record[child.name], child)
      for (const key of Object.keys(record)) if (!(key in result)) result[key] = record[key]
      return result
    }
    case 'struct_list':
      return Array.isArray(value) ? value.map((item) => normalize(item, { ...field, kind: 'struct' })) : value
    default:
      return value
  }
}

export interface NestedParquetFile {
  rows: Record<string, unknown>[]
  sha256: string
  /** Top-level column names in file order. */
  columnNames: string[]
}

/**
 * Reads every row of a file. With `columns`, nested values are normalised to that shape (missing keys →
 * null); unknown columns are kept as read, so a validator still sees them.
 */
export async function readNestedParquet(path: string, columns?: readonly NestedField[]): Promise<NestedParquetFile> {
  const bytes = readFileSync(path)
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
  const metadata = parquetMetadata(file)
  const columnNames: string[] = []
  let index = 1
  while (index < metadata.schema.length) {
    const element = metadata.schema[index] as SchemaElement
    columnNames.push(element.name)
    index = skipSubtree(metadata.schema, index)
  }
  const rows = (await parquetReadObjects({ file, metadata, compressors })) as Record<string, unknown>[]
  const byName = new Map((columns ?? []).map((column) => [column.name, column]))
  const normalized = byName.size === 0 ? rows : rows.map((row) => normalizeRow(row, byName))
  return { rows: normalized, sha256: sha256Hex(bytes), columnNames }
}

function normalizeRow(row: Record<string, unknown>, byName: ReadonlyMap<string, NestedField>): Record<string, unknown> {
  const result: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(row)) {
    const field = byName.get(name)
    result[name] = field ? normalize(value, field) : value
  }
  return result
}

/** The index just past the subtree rooted at `index` of a flattened schema. */
function skipSubtree(schema: readonly SchemaElement[], index: number): number {
  let next = index + 1
  for (let child = 0; child < ((schema[index] as SchemaElement).num_children ?? 0); child++) next = skipSubtree(schema, next)
  return next
}
