import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type ByteSink, extendRecordArray, SuffixTable } from './extend-record-array.js'
import { RecordArrayWriter } from './record-array-file.js'

/** Collects what `extendRecordArray` writes, as text. */
function textSink(): ByteSink & { text(): string } {
  const parts: Buffer[] = []
  return {
    write: (text) => parts.push(Buffer.from(text, 'utf8')),
    writeBytes: (bytes) => parts.push(Buffer.from(bytes)),
    text: () => Buffer.concat(parts).toString('utf8'),
  }
}

const bytesOf = (text: string) => Buffer.from(text, 'utf8')

/** A record file's text, as `RecordArrayWriter` writes it. */
function recordFile(records: readonly unknown[]): string {
  let text = ''
  const writer = new RecordArrayWriter({ write: (part) => (text += part) })
  for (const record of records) writer.add(record)
  writer.end()
  return text
}

// Array-index keys ("0", "12") would be ordered first by any JS object, so record keys never are.
const key = fc
  .string({ minLength: 1 })
  .filter((text) => !/^(0|[1-9]\d*)$/.test(text) && text !== 'schema_version' && text !== '__proto__')
const value = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.boolean(), fc.array(fc.string(), { maxLength: 3 }))

describe('extending a record file', () => {
  it('writes exactly the file of the extended records, for any records and extensions', () => {
    const shared = { category_id: 'C1', path: ['制造', '钢卷'] }
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            base: fc.dictionary(key, value, { maxKeys: 5 }),
            extra: fc.dictionary(key, value, { maxKeys: 3 }),
            shared: fc.boolean(),
          }),
          { maxLength: 12 },
        ),
        (items) => {
          const bases = items.map((item) => item.base)
          const extended = items.map((item) => {
            const record: Record<string, unknown> = Object.assign({}, item.base)
            record.schema_version = 2
            if (item.shared) record.target = shared
            for (const [key, extra] of Object.entries(item.extra)) if (!(key in record)) record[key] = extra
            return record
          })
          const table = new SuffixTable('schema_version')
          for (const record of extended) table.add(record)
          const sink = textSink()
          const count = extendRecordArray(bytesOf(recordFile(bases)), table.suffixes(), sink)
          expect(count).toBe(items.length)
          expect(sink.text()).toBe(recordFile(extended))
        },
      ),
      { numRuns: 500 },
    )
  })

  it('refuses a text that is not one record a line, or a suffix count that differs', () => {
    const sink = textSink()
    const suffixes = (count: number) => ({ texts: [',"b":2'], ids: new Int32Array(count) })
    expect(() => extendRecordArray(bytesOf(recordFile([{ a: 1 }])), suffixes(2), sink)).toThrow(/2 records/)
    expect(() => extendRecordArray(bytesOf(recordFile([{ a: 1 }, { b: 2 }])), suffixes(1), sink)).toThrow(/1 records/)
    expect(() => extendRecordArray(bytesOf(JSON.stringify([{ a: 1 }], null, 2)), suffixes(1), sink)).toThrow()
    expect(() => extendRecordArray(bytesOf('[]\n'), suffixes(1), sink)).toThrow(/empty/)
    expect(() => new SuffixTable('schema_version').add({ a: 1 })).toThrow(/schema_version/)
  })
})
