/**
 * Bench child for the workbook reader: reads every row of a workbook and prints the row and cell counts.
 * `ours` is the release line's reader; `exceljs` is ExcelJS 4.4.0's streaming reader, which the line used
 * before (the "before" figure). Timed from outside with farm-bench, A/B paired:
 *
 *   farm-bench -n 5 --timeout 600 --vs 'node --import tsx bench/xlsx-reader/count-rows.ts exceljs big.xlsx' \
 *     -- node --import tsx bench/xlsx-reader/count-rows.ts ours big.xlsx
 *
 * The workbooks come from scripts/fixtures/write-chinese-workbook.ts (both string modes); one huge cell
 * from write-huge-cell.ts. openpyxl's read-only reader, the speed and fidelity oracle, is
 * count-rows-openpyxl.py. The reader before decision 0062 is measured by running this file from a
 * checkout of the commit before it (its `ours`). Figures: docs/decisions/0062-a-strict-reader.md.
 */
import ExcelJS from 'exceljs'
import { readXlsxRows } from '../../src/release/xlsx/read-xlsx-rows.js'

const [reader, path] = process.argv.slice(2)
let rows = 0
let cells = 0
if (reader === 'exceljs') {
  const workbook = new ExcelJS.stream.xlsx.WorkbookReader(path as string, {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  })
  for await (const worksheet of workbook)
    for await (const row of worksheet) {
      rows++
      cells += (row.values as unknown[]).length - 1
    }
} else if (reader === 'ours') {
  for await (const row of readXlsxRows({ path: path as string }).rows) {
    rows++
    cells += row.cells.length
  }
} else {
  process.stderr.write('usage: count-rows.ts ours|exceljs WORKBOOK.xlsx\n')
  process.exit(2)
}
process.stdout.write(`${JSON.stringify({ reader, rows, cells })}\n`)
