/**
 * Issue 33's fidelity check on the reader fixtures (test/fixtures/reader): every workbook the reader
 * reads, cell for cell against openpyxl (read-only, cached values; scripts/acceptance/xlsx-fidelity.py),
 * hidden sheets included: 0 mismatches, with one stated exception: openpyxl decodes only the `_x005F_`
 * escape of Excel's `_xHHHH_` escapes in shared strings and leaves `_x000D_` as text, where Excel (and our
 * reader) show a carriage return: escapes.xlsx differs in exactly that cell. Every CSV/TSV against
 * Python's csv module in the encoding and separator our reader detected or was given.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { readCsvRows } from '../src/release/preprocess/read-csv-rows.js'
import { readXlsxRows } from '../src/release/xlsx/read-xlsx-rows.js'
import { workbookSheets } from '../src/release/xlsx/workbook-sheets.js'
import { type ReaderFixtures, writeReaderFixtures } from './fixtures/reader/write-reader-fixtures.js'
import { testPython } from './support/python.js'
import { temporaryDirectory } from './support/release-fixture.js'

const repo = resolve(import.meta.dirname, '..')
const root = temporaryDirectory('reader-openpyxl')
let fixtures: ReaderFixtures

beforeAll(() => {
  fixtures = writeReaderFixtures(join(root, 'fixtures'))
})

const workbooks = [
  'plain.xlsx',
  'plain-inline.xlsx',
  'dotnet-prefixed.xlsx',
  'single-quoted.xlsx',
  'macro.xlsm',
  'error-cells.xlsx',
  'error-unmapped.xlsx',
  'hidden.xlsx',
]

describe('the reader reads what openpyxl reads', () => {
  for (const name of workbooks)
    it(name, async () => {
      const path = fixtures.files[name] as string
      const sheets = (workbookSheets(path) ?? []).map((sheet) => sheet.name)
      const lines: string[] = []
      for await (const row of readXlsxRows({ path, sheets }).rows)
        lines.push(JSON.stringify({ sheet: row.sheet, rowNumber: row.rowNumber, cells: row.cells }))
      const summary = compare(name, path, lines)
      expect(summary).toMatchObject({ mismatches: 0, rows_only_ours: 0, ufffd_ours: 0 })
      expect(summary.cells).toBeGreaterThanOrEqual(30)
    })

  it('escapes.xlsx: the one cell where openpyxl leaves _x000D_ undecoded', async () => {
    const path = fixtures.files['escapes.xlsx'] as string
    const lines: string[] = []
    for await (const row of readXlsxRows({ path }).rows)
      lines.push(JSON.stringify({ sheet: row.sheet, rowNumber: row.rowNumber, cells: row.cells }))
    const summary = compare('escapes.xlsx', path, lines)
    expect(summary).toMatchObject({
      cells: 15,
      mismatches: 1,
      examples: [{ cell: 'C2', openpyxl: 'DESC_x000D_ X', ours: 'DESC\r X' }],
    })
  })
})

/** The fidelity script's summary (it exits 1 on any mismatch: the summary is read either way). */
function compare(name: string, path: string, lines: string[]): Record<string, unknown> {
  const ours = join(root, `${name}.jsonl`)
  writeFileSync(ours, `${lines.join('\n')}\n`)
  const result = spawnSync(testPython(), [join(repo, 'scripts/acceptance/xlsx-fidelity.py'), path, ours], { encoding: 'utf8' })
  return JSON.parse(result.stdout)
}

describe("the CSV reader reads what Python's csv module reads", () => {
  const python: Record<string, string> = {
    'utf-8': 'utf-8-sig',
    'utf-16le': 'utf-16-le',
    'utf-16be': 'utf-16-be',
    big5: 'big5',
    shift_jis: 'shift_jis',
    'windows-1252': 'cp1252',
  }
  for (const [name, given] of [
    ['utf8.csv', undefined],
    ['utf8-bom.csv', undefined],
    ['semicolon.csv', undefined],
    ['pipe.csv', undefined],
    ['unicode-text.txt', undefined],
    ['utf16le-nobom.tsv', undefined],
    ['utf16be-nobom.tsv', undefined],
    ['big5.csv', 'big5'],
    ['shift-jis.csv', 'shift_jis'],
    ['windows-1252.csv', 'windows-1252'],
  ] as const)
    it(name, async () => {
      const path = fixtures.files[name] as string
      const source = readCsvRows(path, given ? { encoding: given } : {})
      const ours: string[][] = []
      for await (const row of source.rows) ours.push(row.cells)
      // A byte-order mark is the codec's business: utf-16 with one reads as Python's 'utf-16'.
      const codec = name === 'unicode-text.txt' ? 'utf-16' : (python[source.encoding] ?? source.encoding)
      const oracle = JSON.parse(
        execFileSync(testPython(), [join(repo, 'scripts/acceptance/csv-fidelity.py'), path, codec, source.delimiter], {
          encoding: 'utf8',
        }),
      )
      expect(ours).toEqual(oracle)
      expect(ours.length).toBeGreaterThan(2)
    })
})
