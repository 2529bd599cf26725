/**
 * Issue 24's fidelity check: a 50,000-row Chinese catalogue (rare CJK, characters outside the BMP, emoji)
 * in both string modes, shared strings written by ExcelJS's writer (as Excel saves) and inline strings by
 * ours, read by our reader and by openpyxl (scripts/acceptance/xlsx-fidelity.py), cell by cell: no
 * mismatch and no U+FFFD. ExcelJS 4.4.0's streaming reader, which the line used before, fails this.
 * `XLSX_FIDELITY_ROWS` changes the size.
 */
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readXlsxRows } from '../src/release/xlsx/read-xlsx-rows.js'
import { testPython } from './support/python.js'
import { temporaryDirectory } from './support/release-fixture.js'

const rows = Number(process.env.XLSX_FIDELITY_ROWS ?? 50_000)
const repo = resolve(import.meta.dirname, '..')
const directory = temporaryDirectory('xlsx-fidelity')

describe('the workbook reader reads what Excel wrote, exactly', () => {
  for (const strings of ['shared', 'inline'] as const) {
    it(`${rows} Chinese rows with ${strings} strings: openpyxl's cells, no U+FFFD`, async () => {
      const workbook = join(directory, `${strings}.xlsx`)
      execFileSync(
        process.execPath,
        [
          '--import',
          'tsx',
          'scripts/fixtures/write-chinese-workbook.ts',
          '--rows',
          String(rows),
          '--strings',
          strings,
          '--out',
          workbook,
        ],
        { cwd: repo },
      )
      const lines: string[] = []
      for await (const row of readXlsxRows({ path: workbook }).rows)
        lines.push(JSON.stringify({ sheet: row.sheet, rowNumber: row.rowNumber, cells: row.cells }))
      const ours = join(directory, `${strings}.jsonl`)
      writeFileSync(ours, `${lines.join('\n')}\n`)
      const summary = JSON.parse(
        execFileSync(testPython(), [join(repo, 'scripts/acceptance/xlsx-fidelity.py'), workbook, ours], {
          encoding: 'utf8',
          maxBuffer: 1 << 24,
        }),
      )
      expect(summary).toMatchObject({ rows: rows + 1, cells: (rows + 1) * 10, mismatches: 0, rows_only_ours: 0, ufffd_ours: 0 })
    }, 240_000)
  }
})
