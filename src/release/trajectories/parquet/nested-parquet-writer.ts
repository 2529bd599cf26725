/**
 * @module release/trajectories/parquet: writes rows of any nested shape to a Parquet file: rows are
 * shredded into per-leaf streams and written a row group at a time (every leaf's column chunk through
 * `encodeColumnChunk`), then the footer, with hyparquet-writer's Thrift encoder. No statistics, no page
 * indexes. The bytes depend only on the rows and the row-group size, so the same rows give the same file.
 */
import { createHash } from 'node:crypto'
import { closeSync, openSync, rmSync, writeSync } from 'node:fs'
import type { ColumnChunk, FileMetaData, RowGroup } from 'hyparquet'
import { ByteWriter } from 'hyparquet-writer'
import { writeMetadata } from 'hyparquet-writer/src/metadata.js'
import { encodeColumnChunk } from './column-chunk-encoder.js'
import { type CompiledColumns, compileColumns } from './compiled-columns.js'
import { type ParquetField, parquetSchemaOf } from './parquet-shape.js'
import { RowShredder } from './row-shredder.js'

const magic = new Uint8Array([0x50, 0x41, 0x52, 0x31])
export const nestedParquetCreatedBy = 'releaseops nested writer'
export const defaultRowGroupSize = 8192

const physicalType = { string: 'BYTE_ARRAY', int64: 'INT64', boolean: 'BOOLEAN' } as const

export class NestedParquetWriter {
  private readonly descriptor: number
  private readonly hash = createHash('sha256')
  private readonly compiled: CompiledColumns
  private readonly shredder: RowShredder
  private readonly rowGroups: RowGroup[] = []
  private offset = 0
  private rows = 0

  constructor(
    private readonly path: string,
    private readonly columns: readonly ParquetField[],
    private readonly rowGroupSize = defaultRowGroupSize,
  ) {
    this.compiled = compileColumns(columns)
    this.shredder = new RowShredder(this.compiled)
    this.descriptor = openSync(path, 'wx')
    this.put(magic)
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
    const footer = new ByteWriter(1 << 14)
    const metadata: Omit<FileMetaData, 'metadata_length'> = {
      version: 2,
      created_by: nestedParquetCreatedBy,
      schema: parquetSchemaOf(this.columns),
      num_rows: BigInt(this.rows),
      row_groups: this.rowGroups,
    }
    writeMetadata(footer, metadata as FileMetaData) // appends the footer length
    this.put(footer.getBytes())
    this.put(magic)
    closeSync(this.descriptor)
    return this.hash.digest('hex')
  }

  /** Closes and removes the partial file. */
  abandon(): void {
    try {
      closeSync(this.descriptor)
    } catch {}
    rmSync(this.path, { force: true })
  }

  private put(bytes: Uint8Array): void {
    let written = 0
    while (written < bytes.length) written += writeSync(this.descriptor, bytes, written, bytes.length - written)
    this.hash.update(bytes)
    this.offset += bytes.length
  }

  private flush(): void {
    const { rows, streams } = this.shredder.take()
    if (rows === 0) return
    const groupStart = this.offset
    const chunks: ColumnChunk[] = []
    let uncompressedTotal = 0n
    this.compiled.leaves.forEach((leaf, index) => {
      const stream = streams[index]
      if (!stream) throw new Error(`no stream for leaf ${leaf.path.join('.')}`)
      const encoded = encodeColumnChunk(leaf, stream)
      const start = this.offset
      for (const part of encoded.parts) this.put(part)
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
      total_compressed_size: BigInt(this.offset - groupStart),
    })
    this.rows += rows
  }
}
