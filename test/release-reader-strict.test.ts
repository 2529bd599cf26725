/**
 * Issue 33, "what breaks today" 1–6 and 8: every shape that used to publish silently wrong is now read
 * exactly or refused with a coded error naming the file (and part, sheet, row, column), with nothing
 * written. Fixtures: test/fixtures/reader/write-reader-fixtures.ts.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runPreprocess } from '../src/release/preprocess/run-preprocess.js'
import { readXlsxRows } from '../src/release/xlsx/read-xlsx-rows.js'
import {
  big5Rows,
  latinRows,
  type ReaderFixtures,
  shiftJisRows,
  writeReaderFixtures,
} from './fixtures/reader/write-reader-fixtures.js'
import { temporaryDirectory } from './support/release-fixture.js'

const root = temporaryDirectory('reader-strict')
let fixtures: ReaderFixtures
const dataset = 'reader_fixture'

type Issue = { code: string; path: string; message: string }
type Failure = { code: string; path: string; message: string; issues: Issue[] }

const output = (name: string) => join(root, 'out', `${name}.json`)
const preprocess = (name: string, extra: { encoding?: string; delimiter?: ',' | ';' | '\t' | '|'; sheets?: string[] } = {}) =>
  runPreprocess({ input: fixtures.files[name] as string, mapping: fixtures.mapping, dataset, output: output(name), ...extra })
const records = (name: string) =>
  (
    JSON.parse(readFileSync(output(name), 'utf8')) as {
      metadata: Record<string, string>
      classification: object
      data_level: string
    }[]
  ).map(({ metadata, classification, data_level }) => ({ metadata, classification, data_level }))
async function refused(name: string, extra: Parameters<typeof preprocess>[1] = {}): Promise<Failure> {
  try {
    await preprocess(name, extra)
  } catch (error) {
    expect(existsSync(output(name))).toBe(false)
    return error as Failure
  }
  throw new Error(`${name} was read`)
}

beforeAll(async () => {
  fixtures = writeReaderFixtures(join(root, 'fixtures'))
  await preprocess('plain.xlsx')
}, 60_000)

describe('legal XML in any writer’s style reads exactly', () => {
  for (const name of ['plain-inline.xlsx', 'dotnet-prefixed.xlsx', 'single-quoted.xlsx', 'error-unmapped.xlsx'])
    it(name, async () => {
      await preprocess(name)
      expect(records(name)).toEqual(records('plain.xlsx'))
    })
})

describe('not well-formed XML is xlsx_malformed naming file and part, never fewer rows', () => {
  for (const name of ['truncated-sheet.xlsx', 'unclosed-cell.xlsx', 'unknown-entity.xlsx'])
    it(name, async () => {
      const error = await refused(name)
      expect(error.code).toBe('xlsx_malformed')
      expect(error.path).toBe(`${name}:xl/worksheets/sheet1.xml`)
      expect(error.message).toContain('not well-formed XML')
    })
})

describe('cells that hold no value are refused by cell, by one rule', () => {
  it('error values (#N/A, #REF!) in mapped columns name file, sheet, row and column', async () => {
    const error = await refused('error-cells.xlsx')
    expect(error.code).toBe('error_cell')
    expect(error.issues.map((issue) => issue.path)).toEqual([
      'error-cells.xlsx:Catalogue:row 3:Level (column E)',
      'error-cells.xlsx:Catalogue:row 5:Category (column D)',
    ])
    expect(error.issues[0]?.message).toContain('#N/A')
    expect(error.issues[1]?.message).toContain('#REF!')
  })

  it('a formula without a cached value is a kind, not a marker: CSV text starting with U+0002 is text', async () => {
    expect((await refused('formula-uncached.xlsx')).code).toBe('formula_without_value')
    await preprocess('control-char.csv')
    expect(records('control-char.csv')[0]?.metadata.field_description).toBe('\u0002starts with U+0002')
  })

  it('the reader types every cell', async () => {
    const kinds: string[] = []
    for await (const row of readXlsxRows({ path: fixtures.files['error-cells.xlsx'] as string }).rows) kinds.push(row.kinds ?? '')
    expect(kinds[2]).toBe('sssse')
    expect(kinds[4]).toBe('ssses')
  })
})

describe('hidden sheets and rows', () => {
  it('a hidden sheet is skipped and named; a hidden row is read and counted', async () => {
    const report = await preprocess('hidden.xlsx')
    expect(records('hidden.xlsx')).toEqual(records('plain.xlsx'))
    expect(report.skipped_sheets).toEqual([{ sheet: '旧版(2022)', reason: expect.stringContaining('hidden sheet') }])
    expect(report.hidden_rows).toEqual({ count: 1, rows: ['hidden.xlsx:Catalogue:row 4'] })
  })

  it('a hidden sheet named with --sheet is read', async () => {
    await runPreprocess({
      input: fixtures.files['hidden.xlsx'] as string,
      mapping: fixtures.mapping,
      dataset,
      output: output('hidden-named'),
      sheets: ['旧版(2022)'],
    })
    expect(records('hidden-named').map((record) => record.metadata.field_name)).toEqual(['old_field'])
  })
})

it("Excel's _xHHHH_ escapes decode as Excel decodes them", async () => {
  const cells: string[] = []
  for await (const row of readXlsxRows({ path: fixtures.files['escapes.xlsx'] as string }).rows) cells.push(row.cells[2] ?? '')
  expect(cells.slice(1)).toEqual(['DESC\r X', 'under_x000D_score'])
})

describe('formats by content, refusals that say what to do', () => {
  it('.xlsm, and a workbook named .csv, read as workbooks', async () => {
    for (const name of ['macro.xlsm', 'renamed-xlsm.csv']) {
      await preprocess(name)
      expect(records(name)).toEqual(records('plain.xlsx'))
    }
  })

  it('a password-protected workbook, .xls and .ods', async () => {
    const encrypted = await refused('password.xlsx')
    expect(encrypted).toMatchObject({ code: 'password_protected', path: 'password.xlsx' })
    expect(encrypted.message).toContain('save it without a password')
    for (const name of ['legacy.xls', 'calc.ods']) {
      const error = await refused(name)
      expect(error.code).toBe('unsupported_input')
      expect(error.message).toContain('save it as .xlsx')
    }
  })
})

describe('CSV and TSV: separators and encodings', () => {
  for (const name of [
    'utf8.csv',
    'utf8-bom.csv',
    'semicolon.csv',
    'pipe.csv',
    'unicode-text.txt',
    'utf16le-nobom.tsv',
    'utf16be-nobom.tsv',
  ])
    it(`${name} gives the workbook's records`, async () => {
      await preprocess(name)
      expect(records(name)).toEqual(records('plain.xlsx'))
    })

  it('two separators that fit equally are refused: --delimiter says which', async () => {
    expect((await refused('ambiguous.csv')).code).toBe('csv_delimiter')
  })

  for (const [name, encoding, rows] of [
    ['big5.csv', 'big5', big5Rows],
    ['shift-jis.csv', 'shift_jis', shiftJisRows],
    ['windows-1252.csv', 'windows-1252', latinRows],
  ] as const)
    it(`${name}: refused without --encoding (the suspected one named), exact with it`, async () => {
      const error = await refused(name)
      expect(error.code).toBe('csv_encoding')
      expect(error.message).toContain('encodings tried: utf-8')
      expect(error.message).toContain(`suspects ${encoding} (confidence`)
      await preprocess(name, { encoding })
      expect(records(name).map((record) => record.metadata.field_description)).toEqual(rows.map((row) => row[2]))
    })
})

describe('limits', () => {
  it('a part that inflates past the limit, and too many shared strings, are xlsx_too_large', async () => {
    const read = async (limits: { maxPartBytes?: number; maxSharedStrings?: number }) => {
      try {
        for await (const _ of readXlsxRows({ path: fixtures.files['plain.xlsx'] as string, limits }).rows);
      } catch (error) {
        return error as Failure
      }
      throw new Error('read')
    }
    expect(await read({ maxPartBytes: 500 })).toMatchObject({ code: 'xlsx_too_large', path: 'plain.xlsx:xl/sharedStrings.xml' })
    expect(await read({ maxSharedStrings: 3 })).toMatchObject({ code: 'xlsx_too_large', path: 'plain.xlsx:xl/sharedStrings.xml' })
  })
})
