/**
 * Prints every row our workbook reader gives as one JSON line ({sheet, rowNumber, cells}), for
 * `xlsx-fidelity.py`; `--reader exceljs` prints what ExcelJS 4.4.0's streaming reader gives instead
 * (the reader the release line used before: its chunk-by-chunk decoding splits multi-byte characters).
 *
 *   node --import tsx scripts/acceptance/xlsx-rows-jsonl.ts WORKBOOK.xlsx [--reader ours|exceljs] > rows.jsonl
 */
import ExcelJS from 'exceljs'
import { readXlsxRows } from '../../src/release/xlsx/read-xlsx-rows.js'

const [path, flag, reader = 'ours'] = process.argv.slice(2)
if (!path || (flag !== undefined && flag !== '--reader')) {
  process.stderr.write('usage: xlsx-rows-jsonl.ts WORKBOOK.xlsx [--reader ours|exceljs]\n')
  process.exit(2)
}
const out: string[] = []
const flush = () => {
  process.stdout.write(out.join(''))
  out.length = 0
}
if (reader === 'exceljs') {
  const workbook = new ExcelJS.stream.xlsx.WorkbookReader(path, { sharedStrings: 'cache', styles: 'ignore', worksheets: 'emit' })
  for await (const worksheet of workbook) {
    const sheet = (worksheet as unknown as { name: string }).name
    for await (const row of worksheet) {
      const values = row.values as unknown[]
      const cells = values.slice(1).map((value) => {
        if (value === null || value === undefined) return ''
        const rich = (value as { richText?: { text: string }[] }).richText
        return rich ? rich.map((part) => part.text).join('') : String(value)
      })
      out.push(`${JSON.stringify({ sheet, rowNumber: row.number, cells })}\n`)
      if (out.length >= 1000) flush()
    }
  }
} else {
  for await (const row of readXlsxRows({ path }).rows) {
    out.push(`${JSON.stringify({ sheet: row.sheet, rowNumber: row.rowNumber, cells: row.cells })}\n`)
    if (out.length >= 1000) flush()
  }
}
flush()
