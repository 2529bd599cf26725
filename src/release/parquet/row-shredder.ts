/**
 * @module release/parquet: rows → per-leaf Dremel streams (repetition level, definition level
 * and the present values), for any shape of structs and standard lists. A value that is not what the
 * shape says (a key the struct lacks, a string where a list belongs, a fractional or unsafe integer) is an
 * error rather than a silently dropped field. A top-level value that is the very object of the previous
 * row (every row's `tools` list) is copied from that row's slots instead of being walked again.
 */
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'
import type { CompiledColumns, CompiledNode, LeafColumn } from './compiled-columns.js'

export type ScalarValue = string | number | boolean

/** One leaf's slots: levels per slot, a value per slot whose definition level is the leaf's maximum. */
class LeafStream {
  definitions: Uint8Array
  repetitions: Uint8Array
  slots = 0
  values: ScalarValue[] = []

  constructor(capacity = 1 << 12) {
    this.definitions = new Uint8Array(capacity)
    this.repetitions = new Uint8Array(capacity)
  }

  push(repetition: number, definition: number): void {
    if (this.slots === this.definitions.length) this.grow(this.slots + 1)
    this.definitions[this.slots] = definition
    this.repetitions[this.slots] = repetition
    this.slots++
  }

  /** Appends slots [start, end) and values [valueStart, valueEnd) of this stream again. */
  repeat(start: number, end: number, valueStart: number, valueEnd: number): void {
    const count = end - start
    if (this.slots + count > this.definitions.length) this.grow(this.slots + count)
    this.definitions.copyWithin(this.slots, start, end)
    this.repetitions.copyWithin(this.slots, start, end)
    this.slots += count
    for (let index = valueStart; index < valueEnd; index++) this.values.push(this.values[index] as ScalarValue)
  }

  private grow(needed: number): void {
    const capacity = Math.max(needed, this.definitions.length * 2)
    const definitions = new Uint8Array(capacity)
    definitions.set(this.definitions.subarray(0, this.slots))
    const repetitions = new Uint8Array(capacity)
    repetitions.set(this.repetitions.subarray(0, this.slots))
    this.definitions = definitions
    this.repetitions = repetitions
  }
}

function mismatch(path: string, message: string): ReleaseOpsError {
  return new ReleaseOpsError({ code: 'parquet_value_shape', path, message })
}

/** Where the previous row's value of a column sits in each of its leaves. */
interface ColumnMemo {
  value: unknown
  ranges: { start: number; end: number; valueStart: number; valueEnd: number }[]
}

export class RowShredder {
  streams: LeafStream[]
  rows = 0
  private readonly memos: (ColumnMemo | undefined)[]

  constructor(private readonly compiled: CompiledColumns) {
    this.streams = compiled.leaves.map(() => new LeafStream())
    this.memos = compiled.columns.map(() => undefined)
  }

  get leaves(): readonly LeafColumn[] {
    return this.compiled.leaves
  }

  add(row: Readonly<Record<string, unknown>>): void {
    this.compiled.columns.forEach((column, index) => {
      const value = row[column.name]
      const memo = this.memos[index]
      if (memo && memo.value === value && value !== null && typeof value === 'object') {
        column.node.leaves.forEach((leaf, position) => {
          const range = memo.ranges[position] as ColumnMemo['ranges'][number]
          ;(this.streams[leaf] as LeafStream).repeat(range.start, range.end, range.valueStart, range.valueEnd)
        })
        return
      }
      const starts = column.node.leaves.map((leaf) => {
        const stream = this.streams[leaf] as LeafStream
        return { start: stream.slots, valueStart: stream.values.length }
      })
      this.shred(column.node, value, 0, 0, column.name)
      this.memos[index] = {
        value,
        ranges: column.node.leaves.map((leaf, position) => {
          const stream = this.streams[leaf] as LeafStream
          const start = starts[position] as { start: number; valueStart: number }
          return { ...start, end: stream.slots, valueEnd: stream.values.length }
        }),
      }
    })
    this.rows++
  }

  /** The streams so far; the shredder starts over empty. */
  take(): { rows: number; streams: LeafStream[] } {
    const taken = { rows: this.rows, streams: this.streams }
    this.streams = this.compiled.leaves.map(() => new LeafStream())
    this.memos.fill(undefined)
    this.rows = 0
    return taken
  }

  private absent(node: CompiledNode, repetition: number, definition: number): void {
    for (const leaf of node.leaves) (this.streams[leaf] as LeafStream).push(repetition, definition)
  }

  private shred(node: CompiledNode, value: unknown, repetition: number, parentDefinition: number, path: string): void {
    if (value === null || value === undefined) {
      this.absent(node, repetition, parentDefinition)
      return
    }
    switch (node.kind) {
      case 'leaf': {
        const stream = this.streams[node.leaf] as LeafStream
        const kind = (this.compiled.leaves[node.leaf] as LeafColumn).kind
        const ok =
          kind === 'string'
            ? typeof value === 'string'
            : kind === 'boolean'
              ? typeof value === 'boolean'
              : typeof value === 'number' && Number.isSafeInteger(value)
        if (!ok)
          throw mismatch(path, `expected ${kind === 'int64' ? 'a safe integer' : `a ${kind}`}, got ${JSON.stringify(value)}`)
        stream.push(repetition, node.definition)
        stream.values.push(value as ScalarValue)
        return
      }
      case 'struct': {
        if (typeof value !== 'object' || Array.isArray(value)) throw mismatch(path, 'expected an object')
        const record = value as Record<string, unknown>
        let present = 0
        for (const field of node.fields) {
          const child = record[field.name]
          if (child !== undefined) present++
          this.shred(field.node, child, repetition, node.definition, `${path}.${field.name}`)
        }
        if (present !== Object.keys(record).length) {
          const known = new Set(node.fields.map((field) => field.name))
          const extra = Object.keys(record).filter((key) => !known.has(key))
          throw mismatch(path, `keys ${extra.join(', ')} are not columns of this struct`)
        }
        return
      }
      case 'list': {
        if (!Array.isArray(value)) throw mismatch(path, 'expected a list')
        if (value.length === 0) {
          this.absent(node, repetition, node.definition)
          return
        }
        value.forEach((item, index) => {
          this.shred(node.element, item, index === 0 ? repetition : node.repetition, node.definition + 1, `${path}.${index}`)
        })
      }
    }
  }
}
