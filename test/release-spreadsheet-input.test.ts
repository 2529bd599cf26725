/**
 * Issue 24: what the reader gives for what people send. Cells: dates as ISO text, cached formula values,
 * numbers stored as text kept, a formula without a cached value a coded error naming file, sheet, row and
 * column. The same catalogue in both string modes and as a GBK CSV (read with --encoding gb18030) gives
 * the same records; Unicode encodings are detected, a legacy one is never guessed (issue 33), and bytes
 * that are not valid in the encoding asked for are refused, naming the one suspected.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runPreprocess } from '../src/release/preprocess/run-preprocess.js'
import { readXlsxRows } from '../src/release/xlsx/read-xlsx-rows.js'
import { writeXlsx } from '../src/release/xlsx/write-xlsx.js'
import { retailDataset as dataset, encodeGbk, writeRetailFixture } from './fixtures/retail/write-retail-fixture.js'
import { temporaryDirectory } from './support/release-fixture.js'

const root = temporaryDirectory('spreadsheet-input')
const shared = join(root, 'shared')
const inline = join(root, 'inline')
const mapping = (dir: string) => join(dir, 'assets/mappings', `${dataset}.mapping.json`)
const records = (path: string) =>
  (JSON.parse(readFileSync(path, 'utf8')) as { provenance: object; [key: string]: unknown }[]).map(
    ({ provenance: _provenance, ...rest }) => rest,
  )
const thrown = async (run: () => Promise<unknown>) => {
  try {
    await run()
  } catch (error) {
    return error as { code: string; message: string; issues: { code: string; path: string; message: string }[] }
  }
  throw new Error('expected a failure')
}

beforeAll(async () => {
  await writeRetailFixture(shared, 'shared')
  await writeRetailFixture(inline, 'inline')
})

describe('cells as Excel shows them', () => {
  it('dates become ISO dates and times, formulas their cached values, text stays text', async () => {
    const path = join(root, 'cells.xlsx')
    writeXlsx(path, [
      {
        name: 'S',
        rows: [
          ['a', 'b', 'c', 'd', 'e'],
          [{ date: 45352 }, { date: 45352.5 }, { formula: 'A1&"x"', cached: 'ax' }, { formula: '1+1', cached: 2 }, '00123'],
        ],
      },
    ])
    const rows = []
    for await (const row of readXlsxRows({ path }).rows) rows.push(row.cells)
    expect(rows[1]).toEqual(['2024-03-01', '2024-03-01T12:00:00', 'ax', '2', '00123'])
  })

  it('a formula without a cached value is a coded error naming file, sheet, row and column', async () => {
    const path = join(root, 'uncached.xlsx')
    writeXlsx(path, [
      {
        name: '目录',
        rows: [['标题'], ['表名', '字段名', '分级'], ['t', 'f1', 'L2'], ['t', 'f2', { formula: 'VLOOKUP(B4,X!A:B,2,0)' }]],
      },
    ])
    const map = join(root, 'uncached.mapping.json')
    writeFileSync(map, JSON.stringify({ 表名: 'table_name', 字段名: 'field_name', 分级: 'data_level' }))
    const error = await thrown(() => runPreprocess({ input: path, mapping: map, dataset, output: join(root, 'uncached.json') }))
    expect(error.code).toBe('formula_without_value')
    expect(error.issues[0]?.path).toBe('uncached.xlsx:目录:row 4:分级 (column C)')
    expect(error.message).not.toContain('[object Object]')
  })
})

describe('one catalogue, three encodings of it', () => {
  it('shared strings and inline strings give the same records', async () => {
    for (const dir of [shared, inline])
      await runPreprocess({
        input: join(dir, 'raw', `${dataset}.xlsx`),
        mapping: mapping(dir),
        dataset,
        output: join(dir, 'processed.json'),
      })
    expect(records(join(inline, 'processed.json'))).toEqual(records(join(shared, 'processed.json')))
  })

  it('the GBK CSV of a tab is refused without --encoding, and gives that tab’s records with it', async () => {
    const csv = join(shared, 'raw', `${dataset}.gbk.csv`)
    const guessed = await thrown(() =>
      runPreprocess({ input: csv, mapping: mapping(shared), dataset, output: join(shared, 'csv.json') }),
    )
    expect(guessed.code).toBe('csv_encoding')
    expect(guessed.message).toContain('suspects gb18030')
    await runPreprocess({ input: csv, mapping: mapping(shared), dataset, output: join(shared, 'csv.json'), encoding: 'gb18030' })
    const fromCsv = records(join(shared, 'csv.json'))
    const fromTab = (JSON.parse(readFileSync(join(shared, 'processed.json'), 'utf8')) as { provenance: { sheet: string } }[])
      .filter((record) => record.provenance.sheet === '电商')
      .map(({ provenance: _provenance, ...rest }) => rest)
    expect(fromCsv).toEqual(fromTab)
  })

  it('a file not valid in the encoding asked for is refused, naming it and the one it looks like', async () => {
    const csv = join(shared, 'raw', `${dataset}.gbk.csv`)
    const error = await thrown(() =>
      runPreprocess({ input: csv, mapping: mapping(shared), dataset, output: join(shared, 'x.json'), encoding: 'utf-8' }),
    )
    expect(error.code).toBe('csv_encoding')
    expect(error.message).toContain('is not valid utf-8 (encodings tried: utf-8); the chardet detector suspects gb18030')
    expect(error.message).toContain('pass --encoding gb18030')
  })

  it('UTF-16 with a byte-order mark and GBK (given) with English headers decode to the same text', async () => {
    const text = 'field_name,table_name,data_level\r\n手机号,客户表,L4\r\n'
    const map = join(root, 'en.mapping.json')
    writeFileSync(map, JSON.stringify({ field_name: 'field_name', table_name: 'table_name', data_level: 'data_level' }))
    const outputs = []
    for (const [name, bytes] of [
      ['utf16.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])],
      ['gbk.csv', encodeGbk(text)],
      ['utf8.csv', Buffer.from(`\ufeff${text}`)],
    ] as const) {
      writeFileSync(join(root, name), bytes)
      const encoding = name === 'gbk.csv' ? { encoding: 'gb18030' } : {}
      await runPreprocess({ input: join(root, name), mapping: map, dataset, output: join(root, `${name}.json`), ...encoding })
      outputs.push(records(join(root, `${name}.json`)))
    }
    expect(outputs[0]).toEqual(outputs[2])
    expect(outputs[1]).toEqual(outputs[2])
    expect(outputs[2]).toMatchObject([{ metadata: { field_name: '手机号', table_name: '客户表' } }])
  })
})
