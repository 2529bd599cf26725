import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { readRecordArray, writeRecordArray } from './record-array-file.js'
import { sha256File } from './sha256.js'

let directory: string | undefined
afterEach(() => {
  if (directory) rmSync(directory, { recursive: true, force: true })
  directory = undefined
})

describe('record array files', () => {
  it('hold one record per line, read back whole, and report the hash of the bytes on disk', () => {
    directory = mkdtempSync(join(tmpdir(), 'record-array-'))
    const path = join(directory, 'all.json')
    // Records large enough to need several buffer flushes.
    const records = Array.from({ length: 300 }, (_, index) => ({ id: index, text: `文本 ${index} `.repeat(4000) }))
    const written = writeRecordArray(path, records)
    expect(written).toEqual({ count: 300, sha256: sha256File(path) })
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(records)
    expect(readRecordArray(path, 'records')).toEqual({ records, sha256: written.sha256 })
    const empty = join(directory, 'empty.json')
    expect(writeRecordArray(empty, []).count).toBe(0)
    expect(readFileSync(empty, 'utf8')).toBe('[]\n')
  })
})
