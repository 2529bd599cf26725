/**
 * @module release/xlsx: a minimal ZIP writer (deflate, no zip64) with fixed timestamps, so the same
 * entries always give the same bytes. Spreadsheet libraries stamp the current time into their zips.
 */
import { crc32, deflateRawSync } from 'node:zlib'

/** A file to write into a zip: its name and its bytes. */
export interface ZipWriteEntry {
  name: string
  data: Uint8Array
}

/** 1980-01-01 00:00:00 in MS-DOS date/time fields. */
const dosTime = 0
const dosDate = (0 << 9) | (1 << 5) | 1

interface EntryFields {
  checksum: number
  compressed: number
  size: number
  nameLength: number
}

/** What a local header and its central record share, from "version needed" to the name length (26 bytes at `at`). */
function writeEntryFields(header: Buffer, at: number, fields: EntryFields): void {
  header.writeUInt16LE(20, at) // version needed
  header.writeUInt16LE(0x0800, at + 2) // UTF-8 names
  header.writeUInt16LE(8, at + 4) // deflate
  header.writeUInt16LE(dosTime, at + 6)
  header.writeUInt16LE(dosDate, at + 8)
  header.writeUInt32LE(fields.checksum, at + 10)
  header.writeUInt32LE(fields.compressed, at + 14)
  header.writeUInt32LE(fields.size, at + 18)
  header.writeUInt16LE(fields.nameLength, at + 22)
}

export function buildZip(entries: readonly ZipWriteEntry[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8')
    const compressed = deflateRawSync(entry.data, { level: 6 })
    const fields = {
      checksum: crc32(entry.data),
      compressed: compressed.length,
      size: entry.data.length,
      nameLength: name.length,
    }
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    writeEntryFields(local, 4, fields)
    local.writeUInt16LE(0, 28)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4) // version made by
    writeEntryFields(central, 6, fields)
    central.writeUInt32LE(offset, 42)
    locals.push(local, name, compressed)
    centrals.push(central, name)
    offset += local.length + name.length + compressed.length
    if (offset > 0xffffffff) throw new RangeError('zip too large for a non-zip64 archive')
  }
  const centralSize = centrals.reduce((size, part) => size + part.length, 0)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(centralSize, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, ...centrals, end])
}
