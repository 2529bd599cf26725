/**
 * @module release/sft: explicit Parquet schemas in the standard 3-level LIST layout, which pyarrow, pandas,
 * HF datasets, DuckDB and VeRL read as `list<struct<…>>`, and the leaf columns they imply.
 */
import type { SchemaElement } from 'hyparquet'

export type ColumnSpec =
  | { name: string; kind: 'string' }
  | { name: string; kind: 'struct'; fields: readonly string[] }
  /** `count`: the number of entries in every row's list. */
  | { name: string; kind: 'string_list'; count: number }
  | { name: string; kind: 'struct_list'; fields: readonly string[]; count: number }

const utf8 = (name: string): SchemaElement => ({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' })

export function parquetSchema(columns: readonly ColumnSpec[]): SchemaElement[] {
  const schema: SchemaElement[] = [{ name: 'root', num_children: columns.length }]
  for (const column of columns) {
    switch (column.kind) {
      case 'string':
        schema.push(utf8(column.name))
        break
      case 'string_list':
        schema.push(
          { name: column.name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
          { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
          utf8('element'),
        )
        break
      case 'struct':
        schema.push(
          { name: column.name, repetition_type: 'OPTIONAL', num_children: column.fields.length },
          ...column.fields.map(utf8),
        )
        break
      case 'struct_list':
        schema.push(
          { name: column.name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
          { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
          { name: 'element', repetition_type: 'OPTIONAL', num_children: column.fields.length },
          ...column.fields.map(utf8),
        )
        break
    }
  }
  return schema
}

/** One leaf (physical) column: its path and level limits, and how many values every row holds. */
export interface LeafColumn {
  path: string[]
  maxDefinition: number
  maxRepetition: number
  valuesPerRow: number
}

/** The leaf columns of `columns`, in file order. */
export function leafColumns(columns: readonly ColumnSpec[]): LeafColumn[] {
  const leaves: LeafColumn[] = []
  for (const column of columns) {
    switch (column.kind) {
      case 'string':
        leaves.push({ path: [column.name], maxDefinition: 1, maxRepetition: 0, valuesPerRow: 1 })
        break
      case 'string_list':
        leaves.push({
          path: [column.name, 'list', 'element'],
          maxDefinition: 3,
          maxRepetition: 1,
          valuesPerRow: column.count,
        })
        break
      case 'struct':
        for (const field of column.fields)
          leaves.push({ path: [column.name, field], maxDefinition: 2, maxRepetition: 0, valuesPerRow: 1 })
        break
      case 'struct_list':
        for (const field of column.fields)
          leaves.push({
            path: [column.name, 'list', 'element', field],
            maxDefinition: 4,
            maxRepetition: 1,
            valuesPerRow: column.count,
          })
        break
    }
  }
  return leaves
}
