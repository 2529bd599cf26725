import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'
import { EntryTooLarge, entryText, withZip } from './zip-entries.js'
import { buildZip } from './zip-writer.js'

const directory = mkdtempSync(join(tmpdir(), 'releaseops-zip-'))

function zipFile(name: string, bytes: Buffer): string {
  const path = join(directory, name)
  writeFileSync(path, bytes)
  return path
}

const text = (path: string, limit?: number) =>
  withZip(path, (fd, entries) => {
    const entry = entries.get('a.txt')
    if (!entry) throw new Error('test zip has no a.txt')
    return entryText(fd, entry, limit)
  })

describe('zip entries', () => {
  const zip = buildZip([{ name: 'a.txt', data: Buffer.from('hello '.repeat(100)) }])

  it('reads an entry the writer wrote', () => {
    expect(text(zipFile('ok.zip', zip))).toBe('hello '.repeat(100))
  })

  it('refuses an entry over the limit with a coded EntryTooLarge', () => {
    const error = (() => {
      try {
        text(zipFile('big.zip', zip), 10)
      } catch (caught) {
        return caught
      }
    })()
    expect(EntryTooLarge.isInstance(error)).toBe(true)
    expect((error as EntryTooLarge).code).toBe('xlsx_too_large')
    expect((error as EntryTooLarge).limit).toBe(10)
  })

  it('refuses a compression method it does not read with a coded error, not a plain Error', () => {
    const bytes = Buffer.from(zip)
    const central = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]))
    bytes.writeUInt16LE(12, central + 10) // bzip2
    const error = (() => {
      try {
        text(zipFile('bzip2.zip', bytes))
      } catch (caught) {
        return caught
      }
    })()
    expect(ReleaseOpsError.isInstance(error)).toBe(true)
    expect((error as ReleaseOpsError).code).toBe('xlsx_unreadable')
    expect((error as Error).message).toMatch(/method 12/)
  })
})
