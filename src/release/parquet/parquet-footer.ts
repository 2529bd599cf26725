/** @module release/parquet: a Parquet file's metadata, read from its footer alone (no need to load the file). */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { type FileMetaData, parquetMetadata } from 'hyparquet'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'

export function readParquetFooter(path: string): FileMetaData {
  const descriptor = openSync(path, 'r')
  try {
    const size = fstatSync(descriptor).size
    if (size < 12) throw unreadable(path, `${path} is too short to be a Parquet file`)
    const tail = Buffer.alloc(8)
    readSync(descriptor, tail, 0, 8, size - 8)
    const length = tail.readUInt32LE(0) + 8
    if (length > size - 4) throw unreadable(path, `${path} has a corrupt Parquet footer`)
    const footer = Buffer.alloc(length)
    readSync(descriptor, footer, 0, length, size - length)
    return parquetMetadata(new Uint8Array(footer.buffer, footer.byteOffset, footer.byteLength))
  } finally {
    closeSync(descriptor)
  }
}

function unreadable(path: string, message: string): InvalidInputError {
  return new InvalidInputError({ code: 'unreadable_parquet', path, message, issues: [] })
}
