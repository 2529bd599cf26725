/**
 * The nested Parquet writer and reader round-trip any rows of a shape: absent keys, empty and absent lists,
 * nested lists of structs, integers and booleans, row groups and dictionary pages; the bytes depend only
 * on the rows; a value of the wrong shape is refused; a file of another schema is refused by name.
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readNestedParquetRows } from './nested-parquet-file.js'
import { NestedParquetWriter } from './nested-parquet-writer.js'
import { fieldsOf, type ParquetField, shapes } from './parquet-shape.js'

const columns: ParquetField[] = fieldsOf({
  id: shapes.string,
  items: shapes.list(
    shapes.struct({ name: shapes.string, count: shapes.int64, tags: shapes.list(shapes.string), flag: shapes.boolean }),
  ),
  meta: shapes.struct({ a: shapes.string, b: shapes.int64 }),
  ok: shapes.boolean,
})

const item = fc.record(
  {
    name: fc.oneof(fc.string(), fc.constantFrom('repeated', 'values', '钢')),
    count: fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
    tags: fc.array(fc.constantFrom('x', 'y', 'long tag value 字'), { maxLength: 3 }),
    flag: fc.boolean(),
  },
  { requiredKeys: [] },
)
const row = fc.record(
  {
    id: fc.string(),
    items: fc.array(item, { maxLength: 4 }),
    meta: fc.record({ a: fc.string(), b: fc.integer() }, { requiredKeys: [] }),
    ok: fc.boolean(),
  },
  { requiredKeys: ['id'] },
)

let files = 0
const directory = mkdtempSync(join(tmpdir(), 'releaseops-nested-parquet-'))

function write(rows: readonly Record<string, unknown>[], rowGroupSize = 7): { path: string; sha256: string } {
  const path = join(directory, `file-${++files}.parquet`)
  const writer = new NestedParquetWriter(path, columns, rowGroupSize)
  for (const value of rows) writer.add(value)
  return { path, sha256: writer.finish() }
}

function read(path: string, fields = columns): Record<string, unknown>[] {
  return readNestedParquetRows(readFileSync(path), fields)
}

/** What a reader returns: objects keep the keys they had, in column order (an empty struct stays `{}`). */
function expected(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const column of columns) {
    const present = value[column.name]
    if (present === undefined) continue
    if (column.name === 'items') {
      out.items = (present as Record<string, unknown>[]).map((entry) => {
        const ordered: Record<string, unknown> = {}
        for (const key of ['name', 'count', 'tags', 'flag']) if (entry[key] !== undefined) ordered[key] = entry[key]
        return ordered
      })
    } else if (column.name === 'meta') {
      const meta = present as Record<string, unknown>
      const ordered: Record<string, unknown> = {}
      for (const key of ['a', 'b']) if (meta[key] !== undefined) ordered[key] = meta[key]
      out.meta = ordered
    } else out[column.name] = present
  }
  return out
}

describe('nested Parquet round trip', () => {
  it('any rows read back as written (key order included), over several row groups', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 30 }), (rows) => {
        const { path } = write(rows)
        expect(read(path).map((value) => JSON.stringify(value))).toEqual(rows.map((value) => JSON.stringify(expected(value))))
      }),
      { numRuns: 60 },
    )
  })

  it('the same rows give the same bytes; the returned hash is the file hash', () => {
    const rows = fc.sample(row, { numRuns: 200, seed: 42 })
    const first = write(rows, 64)
    const second = write(rows, 64)
    expect(readFileSync(first.path).equals(readFileSync(second.path))).toBe(true)
    expect(first.sha256).toBe(createHash('sha256').update(readFileSync(first.path)).digest('hex'))
  })

  it('refuses a value of the wrong shape, and a file whose schema differs names the difference', () => {
    const path = join(directory, 'bad.parquet')
    const writer = new NestedParquetWriter(path, columns)
    expect(() => writer.add({ id: 'a', items: 'not a list' })).toThrow()
    expect(() => writer.add({ id: 'a', meta: { b: 1.5 } })).toThrow()
    writer.abandon()
    const { path: good } = write([{ id: 'a' }])
    const other: ParquetField[] = [{ name: 'id', shape: { kind: 'int64' } }, ...columns.slice(1)]
    expect(() => read(good, other)).toThrow(/schema differs from the release schema: id: type is BYTE_ARRAY, expected INT64/)
  })
})
