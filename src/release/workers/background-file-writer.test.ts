import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SuffixTable } from '../io/extend-record-array.js'
import { RecordArrayWriter, writeRecordArray } from '../io/record-array-file.js'
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

  it('keeps a record file text, to write a second file whose records extend these', async () => {
    directory = mkdtempSync(join(tmpdir(), 'background-writer-'))
    const records = Array.from({ length: 3000 }, (_, index) => ({ id: index, text: `记录 ${index} `.repeat(40) }))
    const file = new BackgroundFileWriter(join(directory, 'base.json'), { keep: true, batchCharacters: 10_000 })
    const writer = new RecordArrayWriter(file)
    for (const record of records) writer.add(record)
    writer.end()
    expect(await file.close()).toBe(writeRecordArray(join(directory, 'base-here.json'), records).sha256)
    const extended = records.map((record, index) => ({ ...record, schema_version: 2, split: index % 3 ? 'train' : null }))
    const table = new SuffixTable('schema_version')
    for (const record of extended) table.add(record)
    const written = await file.writeExtended(join(directory, 'extended.json'), table.suffixes())
    const here = writeRecordArray(join(directory, 'extended-here.json'), extended)
    expect(written).toEqual(here)
    expect(readFileSync(join(directory, 'extended.json')).equals(readFileSync(join(directory, 'extended-here.json')))).toBe(true)
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
