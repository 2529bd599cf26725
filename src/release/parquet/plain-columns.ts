/**
 * @module release/parquet: rows of strings encoded straight into Parquet PLAIN byte-array pages: one buffer per
 * leaf column holding each value as a 4-byte little-endian length and its UTF-8 bytes, plus the byte end of
 * every row. A batch is transferable: one thread can build while another compresses and writes.
 */
import { InternalInvariantError } from '../../core/errors/internal-invariant-error.js'

export interface PlainColumn {
  bytes: ArrayBuffer
  /** Bytes used in `bytes`. */
  length: number
  /** Per row, the end of its values in `bytes`. */
  rowEnds: Int32Array<ArrayBuffer>
}

export interface ColumnBatch {
  rows: number
  columns: PlainColumn[]
}

/** The buffers a batch transfers (for `postMessage`'s transfer list). */
export function batchTransfers(batch: ColumnBatch): ArrayBuffer[] {
  return batch.columns.flatMap((column) => [column.bytes, column.rowEnds.buffer])
}

class ColumnBuffer {
  buffer: Buffer
  position = 0
  rowEnds: number[] = []
  /** Where the open value's length prefix sits (-1 when no value is open). */
  open = -1
  /** Buffers of written batches, handed back for reuse: writing into fresh memory costs a page fault a page. */
  readonly spare: ArrayBuffer[] = []

  constructor(public capacity: number) {
    this.buffer = Buffer.allocUnsafeSlow(capacity)
  }

  /** A buffer of at least `capacity` bytes, reused when one was handed back. */
  fresh(): Buffer {
    for (;;) {
      const spare = this.spare.pop()
      if (!spare) return Buffer.allocUnsafeSlow(this.capacity)
      if (spare.byteLength >= this.capacity) return Buffer.from(spare)
    }
  }

  room(bytes: number): void {
    if (this.position + bytes <= this.buffer.length) return
    const grown = Buffer.allocUnsafeSlow(Math.max(this.buffer.length * 2, this.position + bytes))
    this.buffer.copy(grown, 0, 0, this.position)
    this.buffer = grown
  }
}

export class PlainColumnsBuilder {
  private readonly columns: ColumnBuffer[]
  private readonly encoded = new Map<string, Buffer>()
  private rows = 0

  constructor(columnCount: number, capacity = 1 << 16) {
    this.columns = Array.from({ length: columnCount }, () => new ColumnBuffer(capacity))
  }

  private bytesOf(text: string): Buffer {
    let bytes = this.encoded.get(text)
    if (!bytes) {
      bytes = Buffer.from(text, 'utf8')
      this.encoded.set(text, bytes)
    }
    return bytes
  }

  /** Appends one value. `repeated`: the text recurs across rows, so its bytes are encoded once and kept. */
  value(column: number, text: string, repeated = false): void {
    this.begin(column)
    if (repeated) this.appendRepeated(column, text)
    else this.append(column, text)
    this.end(column)
  }

  /** Opens a value assembled from parts (`append`, `appendRepeated`) and closed by `end`. */
  begin(column: number): void {
    const target = this.columns[column] as ColumnBuffer
    target.room(4)
    target.open = target.position
    target.position += 4
  }

  append(column: number, text: string): void {
    const target = this.columns[column] as ColumnBuffer
    // A UTF-16 code unit never takes more than 3 UTF-8 bytes.
    target.room(text.length * 3)
    target.position += target.buffer.write(text, target.position, 'utf8')
  }

  appendRepeated(column: number, text: string): void {
    const target = this.columns[column] as ColumnBuffer
    const bytes = this.bytesOf(text)
    const length = bytes.length
    target.room(length)
    // Most repeated values are a few bytes (roles, ids, separators): a loop beats a call to `set` there.
    if (length <= 48) {
      const buffer = target.buffer
      const position = target.position
      for (let index = 0; index < length; index++) buffer[position + index] = bytes[index] as number
    } else target.buffer.set(bytes, target.position)
    target.position += length
  }

  end(column: number): void {
    const target = this.columns[column] as ColumnBuffer
    const length = target.position - target.open - 4
    const buffer = target.buffer
    const open = target.open
    buffer[open] = length & 0xff
    buffer[open + 1] = (length >>> 8) & 0xff
    buffer[open + 2] = (length >>> 16) & 0xff
    buffer[open + 3] = length >>> 24
    target.open = -1
  }

  /** Appends again, as this row's, the values the previous row holds in `column` (its bytes are copied). */
  repeatPreviousRow(column: number): void {
    const target = this.columns[column] as ColumnBuffer
    const ends = target.rowEnds
    if (ends.length === 0 || target.open !== -1) throw new InternalInvariantError('no previous row to repeat, or a value is open')
    const end = ends[ends.length - 1] as number
    const start = ends.length > 1 ? (ends[ends.length - 2] as number) : 0
    if (target.position !== end) throw new InternalInvariantError('the row already holds values in this column')
    target.room(end - start)
    target.buffer.copyWithin(target.position, start, end)
    target.position += end - start
  }

  endRow(): void {
    for (const column of this.columns) {
      if (column.open !== -1) throw new InternalInvariantError('a value is still open at the end of the row')
      column.rowEnds.push(column.position)
    }
    this.rows++
  }

  /** Takes back the buffers of a batch that has been written (or transferred back after writing). */
  recycle(batch: ColumnBatch): void {
    for (const [index, column] of batch.columns.entries()) this.columns[index]?.spare.push(column.bytes)
  }

  /** The rows since the last `take`; each column starts a fresh buffer sized like the last batch's. */
  take(): ColumnBatch {
    const batch: ColumnBatch = {
      rows: this.rows,
      columns: this.columns.map((column) => ({
        bytes: column.buffer.buffer as ArrayBuffer,
        length: column.position,
        rowEnds: Int32Array.from(column.rowEnds),
      })),
    }
    for (const column of this.columns) {
      // Grown only when a batch outgrew it, so handed-back buffers keep fitting.
      if (column.position > column.capacity) column.capacity = column.position + (column.position >> 3)
      column.buffer = column.fresh()
      column.position = 0
      column.rowEnds = []
    }
    this.rows = 0
    return batch
  }
}
