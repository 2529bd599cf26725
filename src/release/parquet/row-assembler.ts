/**
 * @module release/parquet: decoded leaves of a row group → row objects. Walks the compiled
 * column tree with a cursor per leaf: a node whose first leaf's definition level is below the node's is
 * absent (one slot in every leaf below it); a list continues while its first leaf's next repetition level
 * is the list's own. Null and absent values are left out of objects, so a struct read back holds exactly
 * the keys that were written, in column order. INT64 arrives as Number (the decoder checks the range).
 */
import type { DecodedLeaf } from './column-chunk-decoder.js'
import { ParquetDecodeError } from './column-chunk-decoder.js'
import type { CompiledColumns, CompiledNode } from './compiled-columns.js'

export class RowAssembler {
  private readonly slot: Int32Array
  private readonly value: Int32Array

  constructor(
    private readonly compiled: CompiledColumns,
    private readonly leaves: readonly DecodedLeaf[],
  ) {
    this.slot = new Int32Array(leaves.length)
    this.value = new Int32Array(leaves.length)
  }

  /**
   * The next row. Columns named in `substitutes` are stepped over and take the given value (in their own
   * place, so the row's keys keep column order); the others are read.
   */
  next(substitutes?: ReadonlyMap<string, unknown>): Record<string, unknown> {
    const row: Record<string, unknown> = {}
    for (const column of this.compiled.columns) {
      if (substitutes?.has(column.name)) {
        this.skipRow(column.node)
        row[column.name] = substitutes.get(column.name)
        continue
      }
      const value = this.read(column.node)
      if (value !== null) row[column.name] = value
    }
    return row
  }

  /** Checks that every leaf was read to its end (the leaves agree on the row structure). */
  finish(): void {
    this.leaves.forEach((leaf, index) => {
      if (this.slot[index] !== leaf.slots || this.value[index] !== leaf.indices.length)
        throw new ParquetDecodeError(`leaf ${this.compiled.leaves[index]?.path.join('.')} holds slots that belong to no row`)
    })
  }

  private peekDefinition(leaf: number): number {
    const decoded = this.leaves[leaf] as DecodedLeaf
    const slot = this.slot[leaf] as number
    if (slot >= decoded.slots)
      throw new ParquetDecodeError(`leaf ${this.compiled.leaves[leaf]?.path.join('.')} ran out of values`)
    return decoded.definitions[slot] as number
  }

  private absent(node: CompiledNode): null {
    for (const leaf of node.leaves) this.slot[leaf] = (this.slot[leaf] as number) + 1
    return null
  }

  /** Steps over one row of a column without building it. */
  private skipRow(node: CompiledNode): void {
    for (const leaf of node.leaves) {
      const decoded = this.leaves[leaf] as DecodedLeaf
      let slot = this.slot[leaf] as number
      let values = this.value[leaf] as number
      const maxDefinition = this.compiled.leaves[leaf]?.maxDefinition as number
      do {
        if ((decoded.definitions[slot] as number) === maxDefinition) values++
        slot++
      } while (slot < decoded.slots && decoded.repetitions !== null && decoded.repetitions[slot] !== 0)
      this.slot[leaf] = slot
      this.value[leaf] = values
    }
  }

  private read(node: CompiledNode): unknown {
    const first = node.leaves[0] as number
    const definition = this.peekDefinition(first)
    if (definition < node.definition) return this.absent(node)
    switch (node.kind) {
      case 'leaf': {
        const leaf = node.leaf
        this.slot[leaf] = (this.slot[leaf] as number) + 1
        const index = this.value[leaf] as number
        this.value[leaf] = index + 1
        const decoded = this.leaves[leaf] as DecodedLeaf
        if (index >= decoded.indices.length)
          throw new ParquetDecodeError(`leaf ${this.compiled.leaves[leaf]?.path.join('.')} has fewer values than present slots`)
        return decoded.pool[decoded.indices[index] as number]
      }
      case 'struct': {
        const object: Record<string, unknown> = {}
        for (const field of node.fields) {
          const value = this.read(field.node)
          if (value !== null) object[field.name] = value
        }
        return object
      }
      case 'list': {
        if (definition === node.definition) {
          this.absent(node)
          return []
        }
        const items: unknown[] = []
        const decoded = this.leaves[first] as DecodedLeaf
        for (;;) {
          items.push(this.read(node.element))
          const slot = this.slot[first] as number
          if (slot >= decoded.slots || (decoded.repetitions?.[slot] ?? 0) !== node.repetition) break
        }
        return items
      }
    }
  }
}
