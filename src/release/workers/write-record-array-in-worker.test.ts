import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { writeRecordArray } from '../io/record-array-file.js'
import { writeRecordArrayInWorker } from './write-record-array-in-worker.js'

const directory = mkdtempSync(join(tmpdir(), 'record-array-in-worker-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))
let files = 0
const fresh = (name: string) => join(directory, `${++files}-${name}`)

/** The bytes `writeRecordArray` writes for `records`. */
function plainBytes(records: readonly unknown[]): Buffer {
  const path = fresh('plain.json')
  writeRecordArray(path, records)
  return readFileSync(path)
}

// Array-index keys ("0", "12") are ordered first by any JS object, so record keys never are.
const key = fc
  .string({ minLength: 1 })
  .filter((text) => !/^(0|[1-9]\d*)$/.test(text) && text !== 'schema_version' && text !== '__proto__')
const value = fc.oneof(
  fc.string({ unit: 'grapheme' }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constant(null),
  fc.boolean(),
  fc.array(fc.string(), { maxLength: 3 }),
)

/** Base records and records extending them with `schema_version` and more keys (some sharing one object). */
const extendedRecords = fc
  .array(
    fc.record({
      base: fc.dictionary(key, value, { maxKeys: 5 }),
      extra: fc.dictionary(key, value, { maxKeys: 3 }),
      shared: fc.boolean(),
    }),
    { maxLength: 40 },
  )
  .map((items) => {
    const target = { category_id: 'C1', path: ['制造', '钢卷'] }
    const bases = items.map((item) => item.base)
    const records = items.map((item) => {
      const record: Record<string, unknown> = Object.assign({}, item.base)
      record.schema_version = 2
      if (item.shared) record.target = target
      for (const [name, extra] of Object.entries(item.extra)) if (!(name in record)) record[name] = extra
      return record
    })
    return { bases, records }
  })

describe('writing a record array in a worker', () => {
  it('writes the bytes and hash of writeRecordArray, plain or extending, for any records', async () => {
    await fc.assert(
      fc.asyncProperty(extendedRecords, async ({ bases, records }) => {
        const expected = plainBytes(records)
        const plain = fresh('worker.json')
        const extended = fresh('extended.json')
        const plainHash = await writeRecordArrayInWorker(plain, records)
        const extendedHash = await writeRecordArrayInWorker(extended, records, {
          bytes: new Uint8Array(plainBytes(bases)),
          from: 'schema_version',
        })
        expect(readFileSync(plain).equals(expected)).toBe(true)
        expect(readFileSync(extended).equals(expected)).toBe(true)
        expect(extendedHash).toBe(plainHash)
      }),
      { numRuns: 40 },
    )
  })

  it('extends a large file across the worker buffer, and moves the base bytes to the worker', async () => {
    const bases = Array.from({ length: 6000 }, (_, index) => ({ id: `r${index}`, text: `记录 ${index} 😀 `.repeat(index % 50) }))
    const records = bases.map((base, index) => ({ ...base, schema_version: 2, split: index % 3 === 0 ? 'train' : null }))
    const bytes = new Uint8Array(plainBytes(bases))
    const path = fresh('large.json')
    await writeRecordArrayInWorker(path, records, { bytes, from: 'schema_version' })
    expect(readFileSync(path).equals(plainBytes(records))).toBe(true)
    expect(bytes.byteLength).toBe(0)
  })

  it('fails with extension_mismatch when a checked record does not extend its base record', async () => {
    const bases = Array.from({ length: 600 }, (_, index) => ({ id: `r${index}`, name: `field ${index}` }))
    const records = bases.map((base) => ({ ...base, schema_version: 2 }))
    // Record 512 is checked (every 512th and the last are): its base line says otherwise.
    records[512] = { ...records[512], name: 'renamed', schema_version: 2 } as (typeof records)[number]
    const bytes = new Uint8Array(plainBytes(bases))
    await expect(
      writeRecordArrayInWorker(fresh('mismatch.json'), records, { bytes, from: 'schema_version' }),
    ).rejects.toMatchObject({ code: 'extension_mismatch', message: expect.stringMatching(/record 513/) })
  })

  it('refuses records that do not match the base file in number, or lack the first new key', async () => {
    const bases = [{ id: 'a' }, { id: 'b' }]
    const bytes = () => new Uint8Array(plainBytes(bases))
    const from = 'schema_version'
    await expect(
      writeRecordArrayInWorker(fresh('short.json'), [{ id: 'a', schema_version: 2 }], { bytes: bytes(), from }),
    ).rejects.toThrow(/2 records|1 records/)
    await expect(
      writeRecordArrayInWorker(fresh('nokey.json'), [{ id: 'a' }, { id: 'b' }], { bytes: bytes(), from }),
    ).rejects.toThrow(/schema_version/)
    const cyclic: Record<string, unknown> = { id: 1 }
    cyclic.self = cyclic
    await expect(writeRecordArrayInWorker(fresh('cyclic.json'), [cyclic])).rejects.toThrow(/circular/i)
  })
})
