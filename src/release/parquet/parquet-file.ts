/**
 * @module release/parquet: a new Parquet file as our writers make it, front to back: the magic, the row groups'
 * bytes, then the footer. The bytes are hashed on the way out (no second read for the SHA-256), and the
 * offset that column chunks and row groups point at is kept.
 */
import { createHash } from 'node:crypto'
import { closeSync, openSync, rmSync, writeSync } from 'node:fs'
import type { FileMetaData, RowGroup, SchemaElement } from 'hyparquet'
import { ByteWriter } from 'hyparquet-writer'
import { writeMetadata } from './hyparquet-internals.js'

const magic = Buffer.from('PAR1', 'latin1')

export class ParquetFile {
  private readonly descriptor: number
  private readonly hash = createHash('sha256')
  private written = 0

  /** Creates `path` (it must not exist) and writes the leading magic. */
  constructor(private readonly path: string) {
    this.descriptor = openSync(path, 'wx')
    this.put(magic)
  }

  /** Bytes written so far: where the next bytes go. */
  get offset(): number {
    return this.written
  }

  put(bytes: Uint8Array): void {
    let done = 0
    while (done < bytes.length) done += writeSync(this.descriptor, bytes, done, bytes.length - done)
    this.hash.update(bytes)
    this.written += bytes.length
  }

  /** Writes the footer and the closing magic, closes the file and returns its SHA-256. */
  finish(footer: { createdBy: string; schema: SchemaElement[]; rows: number; rowGroups: RowGroup[] }): string {
    const bytes = new ByteWriter(1 << 14)
    const metadata: Omit<FileMetaData, 'metadata_length'> = {
      version: 2,
      created_by: footer.createdBy,
      schema: footer.schema,
      num_rows: BigInt(footer.rows),
      row_groups: footer.rowGroups,
    }
    writeMetadata(bytes, metadata as FileMetaData) // appends the footer length
    this.put(bytes.getBytes())
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
}
