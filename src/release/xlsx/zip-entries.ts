/**
 * @module release/xlsx: the entries of a zip file (an .xlsx package) from its central directory, read
 * whole (small parts) or as a stream of inflated chunks (worksheets). Only stored and deflated entries,
 * which is all Excel, openpyxl and ExcelJS write.
 */
import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs'
import { createInflateRaw, inflateRawSync } from 'node:zlib'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'
import { maxSmallPartBytes } from './reader-limits.js'

/** One record of a zip's central directory: where an entry's data is and how it is stored. */
export interface ZipDirectoryEntry {
  method: number
  compressedSize: number
  localOffset: number
}

function read(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length)
  const got = readSync(fd, buffer, 0, length, position)
  return buffer.subarray(0, got)
}

/** The central directory's entries by name (empty when the file is no zip). */
export function zipEntries(fd: number): Map<string, ZipDirectoryEntry> {
  const entries = new Map<string, ZipDirectoryEntry>()
  const size = fstatSync(fd).size
  const tailLength = Math.min(size, 65_557)
  const tail = read(fd, size - tailLength, tailLength)
  const end = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  if (end < 0 || end + 22 > tail.length) return entries
  const directorySize = tail.readUInt32LE(end + 12)
  const directoryOffset = tail.readUInt32LE(end + 16)
  const directory = read(fd, directoryOffset, directorySize)
  for (let at = 0; at + 46 <= directory.length && directory.readUInt32LE(at) === 0x02014b50; ) {
    const nameLength = directory.readUInt16LE(at + 28)
    const extraLength = directory.readUInt16LE(at + 30)
    const commentLength = directory.readUInt16LE(at + 32)
    const name = directory.toString('utf8', at + 46, at + 46 + nameLength)
    entries.set(name, {
      method: directory.readUInt16LE(at + 10),
      compressedSize: directory.readUInt32LE(at + 20),
      localOffset: directory.readUInt32LE(at + 42),
    })
    at += 46 + nameLength + extraLength + commentLength
  }
  return entries
}

function dataStart(fd: number, entry: ZipDirectoryEntry): number {
  const header = read(fd, entry.localOffset, 30)
  if (header.length < 30 || header.readUInt32LE(0) !== 0x04034b50) throw new UnreadableZipEntry('a zip entry has no local header')
  return entry.localOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28)
}

/** An entry whose inflated size passes a limit (thrown by `entryBytes` and `entryChunks`). */
export class EntryTooLarge extends ReleaseOpsError {
  constructor(readonly limit: number) {
    super({ code: 'xlsx_too_large', message: `inflates to more than ${limit} bytes` })
  }
}

/** An entry this reader cannot read (no local header, a compression method other than stored or deflated). */
class UnreadableZipEntry extends ReleaseOpsError {
  constructor(reason: string) {
    super({ code: 'xlsx_unreadable', message: reason })
  }
}

/** A whole entry's bytes (at most `limit` inflated bytes). */
function entryBytes(fd: number, entry: ZipDirectoryEntry, limit = maxSmallPartBytes): Buffer {
  const data = read(fd, dataStart(fd, entry), entry.compressedSize)
  if (entry.method === 0) {
    if (data.length > limit) throw new EntryTooLarge(limit)
    return data
  }
  if (entry.method !== 8) throw new UnreadableZipEntry(`zip compression method ${entry.method} is not supported`)
  try {
    return inflateRawSync(data, { maxOutputLength: limit })
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new EntryTooLarge(limit)
    throw error
  }
}

/** A whole entry as UTF-8 text (invalid bytes refused, never replaced). */
export function entryText(fd: number, entry: ZipDirectoryEntry, limit = maxSmallPartBytes): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(entryBytes(fd, entry, limit))
}

/**
 * An entry's inflated bytes as a stream of chunks (the file at `path`, the entry located through `fd`),
 * stopping with `EntryTooLarge` once more than `limit` bytes have come out.
 */
export async function* entryChunks(
  path: string,
  fd: number,
  entry: ZipDirectoryEntry,
  limit = Number.POSITIVE_INFINITY,
): AsyncGenerator<Buffer> {
  const start = dataStart(fd, entry)
  if (entry.compressedSize === 0) return
  const raw = createReadStream(path, { start, end: start + entry.compressedSize - 1, highWaterMark: 1 << 20 })
  if (entry.method !== 0 && entry.method !== 8) {
    raw.destroy()
    throw new UnreadableZipEntry(`zip compression method ${entry.method} is not supported`)
  }
  let source: AsyncIterable<Buffer> = raw
  let inflate: ReturnType<typeof createInflateRaw> | undefined
  if (entry.method === 8) {
    inflate = createInflateRaw({ chunkSize: 1 << 20 })
    raw.on('error', (error) => inflate?.destroy(error))
    raw.pipe(inflate)
    source = inflate
  }
  let total = 0
  try {
    for await (const chunk of source) {
      total += chunk.length
      if (total > limit) throw new EntryTooLarge(limit)
      yield chunk
    }
  } finally {
    inflate?.destroy()
    raw.destroy()
  }
}

/** Opens `path`, runs `body` with its descriptor and central directory, and closes it. */
export function withZip<T>(path: string, body: (fd: number, entries: Map<string, ZipDirectoryEntry>) => T): T {
  const fd = openSync(path, 'r')
  try {
    return body(fd, zipEntries(fd))
  } finally {
    closeSync(fd)
  }
}
