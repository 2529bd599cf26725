/**
 * @module release/trajectories/parquet: writes rows of any nested shape to a Parquet file: rows are
 * shredded into per-leaf streams and written a row group at a time (every leaf's column chunk through
 * `encodeColumnChunk`), then the footer, with hyparquet-writer's Thrift encoder. No statistics, no page
 * indexes. The bytes depend only on the rows and the row-group size, so the same rows give the same file.
 */
import type { ColumnChunk, RowGroup } from 'hyparquet'
import { ParquetFile } from '../../io/parquet-file.js'
import { encodeColumnChunk } from './column-chunk-encoder.js'
import { type CompiledColumns, compileColumns } from './compiled-columns.js'
import { type ParquetField, parquetSchemaOf } from './parquet-shape.js'
import { RowShredder } from './row-shredder.js'

export const nestedParquetCreatedBy = 'releaseops nested writer'
export const defaultRowGroupSize = 8192

const physicalType = { string: 'BYTE_ARRAY', int64: 'INT64', boolean: 'BOOLEAN' } as const

export class NestedParquetWriter {
  private readonly file: ParquetFile
  private readonly compiled: CompiledColumns
  private readonly shredder: RowShredder
  private readonly rowGroups: RowGroup[] = []
  private rows = 0

  constructor(
    path: string,
    private readonly columns: readonly ParquetField[],
    private readonly rowGroupSize = defaultRowGroupSize,
  ) {
    this.compiled = compileColumns(columns)
    this.shredder = new RowShredder(this.compiled)
    this.file = new ParquetFile(path)
  }

  get rowCount(): number {
    return this.rows + this.shredder.rows
  }

  add(row: Readonly<Record<string, unknown>>): void {
    this.shredder.add(row)
    if (this.shredder.rows >= this.rowGroupSize) this.flush()
  }

  /** Flushes the last row group, writes the footer, closes the file and returns its SHA-256. */
  finish(): string {
    this.flush()
    return this.file.finish({
      createdBy: nestedParquetCreatedBy,
      schema: parquetSchemaOf(this.columns),
      rows: this.rows,
      rowGroups: this.rowGroups,
    })
  }

  /** Closes and removes the partial file. */
  abandon(): void {
    this.file.abandon()
  }

  private flush(): void {
    const { rows, streams } = this.shredder.take()
    if (rows === 0) return
    const groupStart = this.file.offset
    const chunks: ColumnChunk[] = []
    let uncompressedTotal = 0n
    this.compiled.leaves.forEach((leaf, index) => {
      const stream = streams[index]
      if (!stream) throw new Error(`no stream for leaf ${leaf.path.join('.')}`)
      const encoded = encodeColumnChunk(leaf, stream)
      const start = this.file.offset
      for (const part of encoded.parts) this.file.put(part)
      uncompressedTotal += BigInt(encoded.uncompressedBytes)
      chunks.push({
        file_offset: BigInt(start),
        meta_data: {
          type: physicalType[leaf.kind],
          encodings: encoded.encodings,
          path_in_schema: leaf.path,
          codec: 'BROTLI',
          num_values: BigInt(stream.slots),
          total_uncompressed_size: BigInt(encoded.uncompressedBytes),
          total_compressed_size: BigInt(encoded.bytes),
          data_page_offset: BigInt(start + encoded.dictionaryPageBytes),
          ...(encoded.dictionaryPageBytes > 0 ? { dictionary_page_offset: BigInt(start) } : {}),
        },
      })
    })
    this.rowGroups.push({
      columns: chunks,
      total_byte_size: uncompressedTotal,
      num_rows: BigInt(rows),
      file_offset: BigInt(groupStart),
      total_compressed_size: BigInt(this.file.offset - groupStart),
    })
    this.rows += rows
  }
}
