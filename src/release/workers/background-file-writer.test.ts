import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { RecordArrayWriter, writeRecordArray } from '../../io/record-array-file.js'
import { BackgroundFileWriter } from './background-file-writer.js'

let directory: string | undefined
afterEach(() => {
  if (directory) rmSync(directory, { recursive: true, force: true })
  directory = undefined
})

describe('background file writer', () => {
  it('writes the same bytes and hash as the in-thread writer, across many batches', async () => {
    directory = mkdtempSync(join(tmpdir(), 'background-writer-'))
    const records = Array.from({ length: 5000 }, (_, index) => ({ id: index, text: `记录 ${index} `.repeat(50) }))
    const here = writeRecordArray(join(directory, 'here.json'), records)
    const file = new BackgroundFileWriter(join(directory, 'there.json'), { batchCharacters: 10_000 })
    const writer = new RecordArrayWriter(file)
    for (const record of records) writer.add(record)
    expect(writer.end()).toBe(here.count)
    expect(await file.close()).toBe(here.sha256)
    expect(readFileSync(join(directory, 'there.json')).equals(readFileSync(join(directory, 'here.json')))).toBe(true)
  })

  it('reports a file it cannot create when it is closed', async () => {
    directory = mkdtempSync(join(tmpdir(), 'background-writer-'))
    const path = join(directory, 'taken.json')
    writeFileSync(path, 'already here')
    const writer = new BackgroundFileWriter(path)
    writer.write('text')
    await expect(writer.close()).rejects.toThrow(/EEXIST|exists/)
    expect(readFileSync(path, 'utf8')).toBe('already here')
  })
})
