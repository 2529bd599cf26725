/**
 * @module release/parquet: writes Parquet files whose rows all have the same shape: every leaf is a UTF-8 byte
 * array, nothing is null, and every list holds the same number of entries in every row. Under that shape
 * the repetition and definition levels are fixed patterns, so a page is its levels, a header and the
 * compressed PLAIN bytes that `PlainColumnsBuilder` already laid out: no per-value work at all here.
 * Pages are DATA_PAGE_V2, cut at row boundaries near `pageSize`; BROTLI (quality 1, through node:zlib) is
 * native, fast on repetitive prompt text, and read by pyarrow, pandas, datasets and DuckDB. No statistics
 * and no page indexes: long prompt columns gain nothing from them. The page headers and the footer are
 * written with hyparquet-writer's Thrift encoders.
 */
import { brotliCompressSync, constants } from 'node:zlib'
import type { ColumnChunk, RowGroup } from 'hyparquet'
import { ByteWriter } from 'hyparquet-writer'
import { InternalInvariantError } from '../../core/errors/internal-invariant-error.js'
import { compileColumns } from './compiled-columns.js'
import { writePageHeader, writeRleBitPackedHybrid } from './hyparquet-internals.js'
import { ParquetFile } from './parquet-file.js'
import { type ParquetField, parquetSchemaOf } from './parquet-shape.js'
import type { ColumnBatch } from './plain-columns.js'

const parquetPageSize = 1 << 20
const parquetCreatedBy = 'releaseops fixed-shape writer'

function compress(bytes: Uint8Array): Uint8Array {
  return brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  })
}

/** The PLAIN byte-array values between two offsets (each a 4-byte length and its bytes). */
function countValues(bytes: ArrayBuffer, start: number, end: number): number {
  const view = new DataView(bytes)
  let count = 0
  let position = start
  while (position < end) {
    position += 4 + view.getUint32(position, true)
    count++
  }
  if (position !== end) throw new InternalInvariantError('a PLAIN value runs past its page')
  return count
}

const bitWidth = (maxLevel: number) => Math.ceil(Math.log2(maxLevel + 1))

/** Columns of UTF-8 strings, structs of them and lists of either, and how many entries each list holds in every row. */
export interface FixedShapeColumns {
  columns: readonly ParquetField[]
  /** Entries per row of every top-level list column. */
  listLengths: Readonly<Record<string, number>>
}

/** One leaf (physical) column: its path and level limits, and how many values every row holds. */
interface LeafColumn {
  path: string[]
  maxDefinition: number
  maxRepetition: number
  valuesPerRow: number
}

/** The leaf columns in file order; refuses shapes this writer cannot lay out as fixed patterns. */
function fixedLeaves(layout: FixedShapeColumns): LeafColumn[] {
  return compileColumns(layout.columns).leaves.map((leaf) => {
    const where = leaf.path.join('.')
    if (leaf.kind !== 'string') throw new InternalInvariantError(`fixed-shape column ${where} is ${leaf.kind}, not a string`)
    if (leaf.maxRepetition > 1) throw new InternalInvariantError(`fixed-shape column ${where} is a list inside a list`)
    const length = leaf.maxRepetition === 0 ? 1 : layout.listLengths[leaf.path[0] as string]
    if (length === undefined || !Number.isInteger(length) || length < 1)
      throw new InternalInvariantError(`fixed-shape list ${leaf.path[0]} needs a positive entry count`)
    return { path: leaf.path, maxDefinition: leaf.maxDefinition, maxRepetition: leaf.maxRepetition, valuesPerRow: length }
  })
}

/** RLE/bit-packed levels of a page of `rows` rows (no length prefix: DATA_PAGE_V2 keeps it in the header). */
function pageLevels(leaf: LeafColumn, rows: number): { bytes: Uint8Array; repetition: number; definition: number } {
  const count = rows * leaf.valuesPerRow
  const writer = new ByteWriter(64)
  let repetition = 0
  if (leaf.maxRepetition > 0) {
    const levels = new Uint8Array(count).fill(leaf.maxRepetition)
    for (let index = 0; index < count; index += leaf.valuesPerRow) levels[index] = 0
    repetition = writeRleBitPackedHybrid(writer, levels, bitWidth(leaf.maxRepetition))
  }
  const definition = writeRleBitPackedHybrid(writer, new Uint8Array(count).fill(leaf.maxDefinition), bitWidth(leaf.maxDefinition))
  return { bytes: new Uint8Array(writer.getBuffer()), repetition, definition }
}

export class FixedShapeParquetWriter {
  private readonly file: ParquetFile
  private readonly leaves: LeafColumn[]
  private readonly rowGroups: RowGroup[] = []
  private rows = 0

  constructor(
    path: string,
    private readonly layout: FixedShapeColumns,
    private readonly pageSize = parquetPageSize,
  ) {
    this.leaves = fixedLeaves(layout)
    this.file = new ParquetFile(path)
  }

  /** Writes one batch as one row group. */
  writeRowGroup(batch: ColumnBatch): void {
    if (batch.columns.length !== this.leaves.length)
      throw new InternalInvariantError(
        `a batch of ${batch.columns.length} columns for a schema of ${this.leaves.length} leaf columns`,
      )
    if (batch.rows === 0) return
    const groupStart = this.file.offset
    const chunks: ColumnChunk[] = []
    let uncompressedTotal = 0n
    this.leaves.forEach((leaf, index) => {
      const column = batch.columns[index] as ColumnBatch['columns'][number]
      if (column.rowEnds.length !== batch.rows || column.rowEnds[batch.rows - 1] !== column.length)
        throw new InternalInvariantError(`column ${leaf.path.join('.')} does not hold ${batch.rows} rows`)
      const chunkStart = this.file.offset
      let uncompressed = 0
      let firstRow = 0
      let pageStart = 0
      while (firstRow < batch.rows) {
        // Rows up to the first one that reaches the page size (a page holds at least one row).
        let lastRow = firstRow
        while (lastRow < batch.rows - 1 && (column.rowEnds[lastRow] as number) - pageStart < this.pageSize) lastRow++
        const pageEnd = column.rowEnds[lastRow] as number
        const rows = lastRow - firstRow + 1
        const values = new Uint8Array(column.bytes, pageStart, pageEnd - pageStart)
        const count = countValues(column.bytes, pageStart, pageEnd)
        if (count !== rows * leaf.valuesPerRow)
          throw new InternalInvariantError(
            `column ${leaf.path.join('.')} holds ${count} values in ${rows} rows, not ${leaf.valuesPerRow} a row`,
          )
        const levels = pageLevels(leaf, rows)
        const compressed = compress(values)
        const header = new ByteWriter(64)
        writePageHeader(header, {
          type: 'DATA_PAGE_V2',
          uncompressed_page_size: levels.bytes.length + values.length,
          compressed_page_size: levels.bytes.length + compressed.length,
          data_page_header_v2: {
            num_values: rows * leaf.valuesPerRow,
            num_nulls: 0,
            num_rows: rows,
            encoding: 'PLAIN',
            definition_levels_byte_length: levels.definition,
            repetition_levels_byte_length: levels.repetition,
            is_compressed: true,
          },
        })
        const headerBytes = new Uint8Array(header.getBuffer())
        this.file.put(headerBytes)
        this.file.put(levels.bytes)
        this.file.put(compressed)
        uncompressed += headerBytes.length + levels.bytes.length + values.length
        firstRow = lastRow + 1
        pageStart = pageEnd
      }
      uncompressedTotal += BigInt(uncompressed)
      chunks.push({
        file_offset: BigInt(chunkStart),
        meta_data: {
          type: 'BYTE_ARRAY',
          encodings: ['PLAIN'],
          path_in_schema: leaf.path,
          codec: 'BROTLI',
          num_values: BigInt(batch.rows * leaf.valuesPerRow),
          total_uncompressed_size: BigInt(uncompressed),
          total_compressed_size: BigInt(this.file.offset - chunkStart),
          data_page_offset: BigInt(chunkStart),
        },
      })
    })
    this.rowGroups.push({
      columns: chunks,
      total_byte_size: uncompressedTotal,
      num_rows: BigInt(batch.rows),
      total_compressed_size: BigInt(this.file.offset - groupStart),
    })
    this.rows += batch.rows
  }

  /** Writes the footer, closes the file and returns its SHA-256. */
  finish(): string {
    return this.file.finish({
      createdBy: parquetCreatedBy,
      schema: parquetSchemaOf(this.layout.columns),
      rows: this.rows,
      rowGroups: this.rowGroups,
    })
  }

  /** Closes and removes the partial file. */
  abandon(): void {
    this.file.abandon()
  }
}
