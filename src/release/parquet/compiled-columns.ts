/**
 * @module release/parquet: top-level columns compiled into the tree both the shredder and
 * the assembler walk: every node knows the definition level at which it is present, every list the
 * repetition level of its entries, and every inner node the leaves below it (a null or empty node takes
 * exactly one slot in each of them). Leaves are numbered in file order.
 */
import type { ParquetField, ParquetShape } from './parquet-shape.js'

export type ScalarKind = 'string' | 'int64' | 'boolean'

export interface LeafColumn {
  index: number
  kind: ScalarKind
  /** Schema path as written in the file (`messages`, `list`, `element`, `content`). */
  path: string[]
  maxDefinition: number
  maxRepetition: number
}

export type CompiledNode =
  | { kind: 'leaf'; definition: number; leaf: number; leaves: readonly number[] }
  | { kind: 'struct'; definition: number; fields: readonly { name: string; node: CompiledNode }[]; leaves: readonly number[] }
  | { kind: 'list'; definition: number; repetition: number; element: CompiledNode; leaves: readonly number[] }

export interface CompiledColumns {
  columns: readonly { name: string; node: CompiledNode }[]
  leaves: readonly LeafColumn[]
}

export function compileColumns(fields: readonly ParquetField[]): CompiledColumns {
  const leaves: LeafColumn[] = []
  const compile = (shape: ParquetShape, path: string[], parentDefinition: number, repetition: number): CompiledNode => {
    const definition = parentDefinition + 1
    switch (shape.kind) {
      case 'struct': {
        const first = leaves.length
        const children = shape.fields.map((field) => ({
          name: field.name,
          node: compile(field.shape, [...path, field.name], definition, repetition),
        }))
        return { kind: 'struct', definition, fields: children, leaves: range(first, leaves.length) }
      }
      case 'list': {
        const first = leaves.length
        // OPTIONAL group (present: `definition`) → REPEATED `list` (+1, one more repetition) → OPTIONAL `element` (+2).
        const element = compile(shape.element, [...path, 'list', 'element'], definition + 1, repetition + 1)
        return { kind: 'list', definition, repetition: repetition + 1, element, leaves: range(first, leaves.length) }
      }
      default: {
        const index = leaves.length
        leaves.push({ index, kind: shape.kind, path, maxDefinition: definition, maxRepetition: repetition })
        return { kind: 'leaf', definition, leaf: index, leaves: [index] }
      }
    }
  }
  const columns = fields.map((field) => ({ name: field.name, node: compile(field.shape, [field.name], 0, 0) }))
  return { columns, leaves }
}

function range(start: number, end: number): number[] {
  return Array.from({ length: end - start }, (_, offset) => start + offset)
}
