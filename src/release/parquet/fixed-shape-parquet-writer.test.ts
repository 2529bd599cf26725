import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'
import { afterEach, describe, expect, it } from 'vitest'
import { sha256Hex } from '../../io/sha256.js'
import { type FixedShapeColumns, FixedShapeParquetWriter } from './fixed-shape-parquet-writer.js'
import { fieldsOf, shapes } from './parquet-shape.js'
import { PlainColumnsBuilder } from './plain-columns.js'

const columns: FixedShapeColumns = {
  columns: fieldsOf({
    pairs: shapes.list(shapes.strings(['key', 'value'])),
    name: shapes.string,
    meta: shapes.strings(['a']),
    tags: shapes.list(shapes.string),
  }),
  listLengths: { pairs: 2, tags: 3 },
}

interface Row {
  pairs: { key: string; value: string }[]
  name: string
  meta: { a: string }
  tags: string[]
}

function batchOf(rows: Row[]) {
  const builder = new PlainColumnsBuilder(5, 16)
  for (const row of rows) {
    for (const pair of row.pairs) builder.value(0, pair.key, true)
    for (const pair of row.pairs) builder.value(1, pair.value)
    builder.value(2, row.name)
    builder.value(3, row.meta.a)
    for (const tag of row.tags) builder.value(4, tag, true)
    builder.endRow()
  }
  return builder.take()
}

const row = (index: number): Row => ({
  pairs: [
    { key: 'k1', value: `值 ${index} ${'x'.repeat(index % 7)}` },
    { key: 'k2', value: index % 5 === 0 ? '' : `v${index}` },
  ],
  name: `name-${index}`,
  meta: { a: `a${index % 3}` },
  tags: ['t1', `t${index % 4}`, 't3'],
})

let directory: string | undefined
afterEach(() => {
  if (directory) rmSync(directory, { recursive: true, force: true })
  directory = undefined
})

describe('fixed-shape Parquet writer', () => {
  it('writes row groups of small pages that read back row for row, and returns the file hash', async () => {
    directory = mkdtempSync(join(tmpdir(), 'fixed-shape-'))
    const path = join(directory, 'rows.parquet')
    const rows = Array.from({ length: 250 }, (_, index) => row(index))
    const writer = new FixedShapeParquetWriter(path, columns, 256)
    writer.writeRowGroup(batchOf(rows.slice(0, 100)))
    writer.writeRowGroup(batchOf(rows.slice(100)))
    const sha256 = writer.finish()
    expect(sha256).toBe(sha256Hex(readFileSync(path)))
    const read = await parquetReadObjects({ file: await asyncBufferFromFile(path), compressors })
    expect(read).toEqual(rows)
  })

  it('rejects a batch whose rows do not have the declared shape and leaves no file behind', () => {
    directory = mkdtempSync(join(tmpdir(), 'fixed-shape-'))
    const path = join(directory, 'bad.parquet')
    const writer = new FixedShapeParquetWriter(path, columns)
    const bad = row(1)
    bad.tags.pop()
    expect(() => writer.writeRowGroup(batchOf([row(0), bad]))).toThrow(/tags\.list\.element holds 5 values in 2 rows/)
    expect(() => writer.writeRowGroup({ rows: 1, columns: [] })).toThrow(/a batch of 0 columns/)
    writer.abandon()
    expect(existsSync(path)).toBe(false)
  })

  it('refuses shapes it cannot lay out as fixed patterns', () => {
    directory = mkdtempSync(join(tmpdir(), 'fixed-shape-'))
    const path = join(directory, 'never.parquet')
    const open = (layout: FixedShapeColumns) => () => new FixedShapeParquetWriter(path, layout)
    expect(open({ columns: fieldsOf({ count: shapes.int64 }), listLengths: {} })).toThrow(/count is int64, not a string/)
    expect(open({ columns: fieldsOf({ tags: shapes.list(shapes.string) }), listLengths: {} })).toThrow(/tags needs a positive/)
    expect(existsSync(path)).toBe(false)
  })
})
