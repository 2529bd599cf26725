import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { writeRecordArray } from '../../io/record-array-file.js'
import { writeRecordArrayInWorker } from './write-record-array-in-worker.js'

const directory = mkdtempSync(join(tmpdir(), 'record-array-in-worker-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))
let files = 0
const fresh = (name: string) => join(directory, `${++files}-${name}`)

const value = fc.oneof(
  fc.string({ unit: 'grapheme' }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constant(null),
  fc.boolean(),
  fc.array(fc.string(), { maxLength: 3 }),
)

describe('writing a record array in a worker', () => {
  it('writes the bytes and hash of writeRecordArray, for any records', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.dictionary(fc.string(), value, { maxKeys: 6 }), { maxLength: 40 }), async (records) => {
        const here = fresh('here.json')
        const there = fresh('there.json')
        const hash = await writeRecordArrayInWorker(there, records)
        expect(hash).toBe(writeRecordArray(here, records).sha256)
        expect(readFileSync(there).equals(readFileSync(here))).toBe(true)
      }),
      { numRuns: 30 },
    )
  })

  it('writes a file of more than one batch (~1.7M characters, batches of 1M)', async () => {
    const records = Array.from({ length: 6000 }, (_, index) => ({
      id: `r${index}`,
      text: `记录 ${index} 😀 `.repeat(index % 50),
    }))
    const here = fresh('large-here.json')
    expect(await writeRecordArrayInWorker(fresh('large.json'), records)).toBe(writeRecordArray(here, records).sha256)
  })

  it('refuses a record it cannot serialise, and a file that exists', async () => {
    const cyclic: Record<string, unknown> = { id: 1 }
    cyclic.self = cyclic
    await expect(writeRecordArrayInWorker(fresh('cyclic.json'), [{ id: 0 }, cyclic])).rejects.toThrow(/circular/i)
    const taken = fresh('taken.json')
    writeRecordArray(taken, [])
    await expect(writeRecordArrayInWorker(taken, [{ id: 1 }])).rejects.toThrow(/EEXIST|exists/)
    expect(readFileSync(taken, 'utf8')).toBe('[]\n')
  })
})
