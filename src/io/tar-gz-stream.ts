/**
 * @module io: a folder (or one file) as a streamed `.tar.gz`, ustar with POSIX pax extended headers, that
 * `tar -tz`, Python's `tarfile` and any pax reader list exactly (decision 0067). Written here rather than
 * with node-tar, which hung on a FIFO, broke the stream mid-way on a name that is not UTF-8 (its string
 * paths cannot name the file), and opens files without O_NONBLOCK, so a FIFO swapped in after the walk
 * blocks a thread for good.
 * - Only regular files and folders go in; links, FIFOs, sockets and devices are left out and reported.
 * - Names are bytes: a non-ASCII name (`café.txt`) or one over 100 bytes gets a pax `path` record; a
 *   name that is not UTF-8 is kept byte for byte with `hdrcharset=BINARY` (POSIX), never mangled.
 * - A file is opened with O_NOFOLLOW | O_NONBLOCK and checked to be a regular file on its descriptor;
 *   exactly the size in its header is written (a file that shrank while read is padded with zeros and
 *   reported, one that grew is cut at that size), so the archive stays well formed whatever happens.
 * - Portable headers: no owner names or ids; a file's permission bits and modification time are kept.
 */
import { constants } from 'node:fs'
import { lstat, open, readdir } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { createGzip } from 'node:zlib'

const block = 512
const chunkBytes = 64 * 1024
const maxOctalSize = 8 ** 11 - 1

/** An entry the archive leaves out, or writes other than it found it (a file that shrank). */
export interface ArchiveNote {
  /** The entry's path inside the archive (bytes shown as UTF-8, invalid ones replaced). */
  path: string
  reason: 'not_regular' | 'unreadable' | 'shrank'
  detail: string
}

export interface TarGzOptions {
  /** The folder or file to archive (absolute). */
  source: string
  /** Its name inside the archive (`r1`, or `.` for a whole root). */
  name: string
  onNote?: (note: ArchiveNote) => void
}

/** The `.tar.gz` of `source` as a stream. */
export function createTarGzStream(options: TarGzOptions): Readable {
  return Readable.from(tarBlocks(options)).pipe(createGzip())
}

async function* tarBlocks(options: TarGzOptions): AsyncGenerator<Buffer> {
  yield* entry({ absolute: Buffer.from(options.source), name: Buffer.from(options.name), onNote: options.onNote })
  yield Buffer.alloc(block * 2)
}

async function* entry(at: { absolute: Buffer; name: Buffer; onNote: TarGzOptions['onNote'] }): AsyncGenerator<Buffer> {
  const info = await lstat(at.absolute).catch(() => undefined)
  const shown = at.name.toString('utf8')
  if (info?.isDirectory()) {
    const folder = Buffer.concat([at.name, Buffer.from('/')])
    yield header({ name: folder, mode: info.mode, size: 0, mtime: info.mtimeMs, type: '5' })
    const names = await readdir(at.absolute, { encoding: 'buffer' }).catch(() => undefined)
    if (names === undefined) {
      at.onNote?.({ path: shown, reason: 'unreadable', detail: 'the folder cannot be listed' })
      return
    }
    for (const child of names.sort(Buffer.compare)) {
      yield* entry({
        absolute: Buffer.concat([at.absolute, Buffer.from('/'), child]),
        name: Buffer.concat([folder, child]),
        onNote: at.onNote,
      })
    }
    return
  }
  if (!info?.isFile()) {
    at.onNote?.({ path: shown, reason: 'not_regular', detail: info ? kindOf(info) : 'gone' })
    return
  }
  yield* fileEntry({ ...at, shown })
}

async function* fileEntry(at: {
  absolute: Buffer
  name: Buffer
  shown: string
  onNote: TarGzOptions['onNote']
}): AsyncGenerator<Buffer> {
  // O_NONBLOCK: a FIFO swapped in since the lstat opens at once (and is refused below) instead of blocking.
  const handle = await open(at.absolute, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => undefined)
  if (handle === undefined) {
    at.onNote?.({ path: at.shown, reason: 'unreadable', detail: 'it cannot be opened' })
    return
  }
  try {
    const info = await handle.stat()
    if (!info.isFile()) {
      at.onNote?.({ path: at.shown, reason: 'not_regular', detail: kindOf(info) })
      return
    }
    const size = info.size
    yield header({ name: at.name, mode: info.mode, size, mtime: info.mtimeMs, type: '0' })
    let written = 0
    while (written < size) {
      const buffer = Buffer.alloc(Math.min(chunkBytes, size - written))
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, written)
      if (bytesRead === 0) break
      written += bytesRead
      yield buffer.subarray(0, bytesRead)
    }
    if (written < size) {
      at.onNote?.({ path: at.shown, reason: 'shrank', detail: `${size - written} bytes shorter than when archiving began` })
      yield Buffer.alloc(size - written)
    }
    if (size % block !== 0) yield Buffer.alloc(block - (size % block))
  } finally {
    await handle.close()
  }
}

function kindOf(info: Awaited<ReturnType<typeof lstat>>): string {
  if (info.isSymbolicLink()) return 'a symbolic link'
  if (info.isFIFO()) return 'a FIFO'
  if (info.isSocket()) return 'a socket'
  if (info.isBlockDevice() || info.isCharacterDevice()) return 'a device'
  return 'not a regular file'
}

/** The header block(s) of one entry: a pax header first when the ustar fields cannot hold it. */
function header(entry: { name: Buffer; mode: number; size: number; mtime: number; type: '0' | '5' }): Buffer {
  const records: Buffer[] = []
  const utf8 = isUtf8(entry.name)
  const ascii = entry.name.every((byte) => byte < 0x80)
  if (!ascii || entry.name.length > 100) {
    if (!utf8) records.push(paxRecord('hdrcharset', Buffer.from('BINARY')))
    records.push(paxRecord('path', entry.name))
  }
  if (entry.size > maxOctalSize) records.push(paxRecord('size', Buffer.from(String(entry.size))))
  const fallback = asciiFallback(entry.name)
  const main = ustar({ ...entry, name: fallback })
  if (records.length === 0) return main
  const data = Buffer.concat(records)
  const pax = ustar({
    name: asciiFallback(Buffer.from(`PaxHeader/${fallback.toString('latin1')}`)),
    mode: 0o644,
    size: data.length,
    mtime: entry.mtime,
    type: 'x',
  })
  return Buffer.concat([pax, data, Buffer.alloc((block - (data.length % block)) % block), main])
}

/** `"<length> <key>=<value>\n"`, the length counting the whole record, its own digits included. */
function paxRecord(key: string, value: Buffer): Buffer {
  const rest = Buffer.byteLength(` ${key}=`) + value.length + 1
  let length = rest + String(rest).length
  if (String(length).length !== String(rest).length) length = rest + String(length).length
  return Buffer.concat([Buffer.from(`${length} ${key}=`), value, Buffer.from('\n')])
}

function ustar(entry: { name: Buffer; mode: number; size: number; mtime: number; type: string }): Buffer {
  const out = Buffer.alloc(block)
  entry.name.copy(out, 0, 0, Math.min(100, entry.name.length))
  octal(out, { offset: 100, width: 8, value: entry.mode & 0o777 })
  octal(out, { offset: 108, width: 8, value: 0 })
  octal(out, { offset: 116, width: 8, value: 0 })
  octal(out, { offset: 124, width: 12, value: Math.min(entry.size, maxOctalSize) })
  octal(out, { offset: 136, width: 12, value: Math.max(0, Math.floor(entry.mtime / 1000)) })
  out.write(entry.type, 156, 'latin1')
  out.write('ustar\u000000', 257, 'latin1')
  out.fill(0x20, 148, 156)
  let sum = 0
  for (const byte of out) sum += byte
  octal(out, { offset: 148, width: 7, value: sum })
  return out
}

/** A zero-padded octal field ending in NUL. */
function octal(out: Buffer, field: { offset: number; width: number; value: number }): void {
  out.write(`${field.value.toString(8).padStart(field.width - 1, '0')}\u0000`, field.offset, 'latin1')
}

/** The ustar name when a pax `path` holds the real one: ASCII, other bytes as `_`, at most 100 bytes. */
function asciiFallback(name: Buffer): Buffer {
  const bytes = Buffer.from(name.map((byte) => (byte >= 0x20 && byte < 0x7f ? byte : 0x5f)))
  return bytes.length <= 100 ? bytes : bytes.subarray(bytes.length - 100)
}

function isUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return true
  } catch {
    return false
  }
}
