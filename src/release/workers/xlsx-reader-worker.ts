/** @module release/workers: worker entry: streams a worksheet's rows to the parent thread in batches. */
import { parentPort, workerData } from 'node:worker_threads'
import { readXlsxRows } from '../xlsx/read-xlsx-rows.js'
import type { SheetRow } from '../xlsx/sheet-row.js'
import { serializeError } from './worker-error.js'

const { path, sheets, batchSize } = workerData as { path: string; sheets?: string[]; batchSize: number }
const port = parentPort as NonNullable<typeof parentPort>

try {
  const source = readXlsxRows({ path, ...(sheets === undefined ? {} : { sheets }) })
  // Rows travel as one string per batch: "row[h]\0kinds\0cell\0cell…" joined by "\u0001" (h: hidden).
  // XML 1.0 cannot carry U+0000 or U+0001, and one string clones far faster than nested arrays; a cell
  // that holds one anyway (Excel's `_x0001_` escape) sends its batch as objects. A batch holds the rows
  // of one sheet.
  let batch: string[] = []
  let objects: SheetRow[] = []
  let plain = true
  let sheet = ''
  const flush = () => {
    if (batch.length > 0)
      port.postMessage(plain ? { type: 'rows', sheet, text: batch.join('\u0001') } : { type: 'objects', sheet, rows: objects })
    batch = []
    objects = []
    plain = true
  }
  for await (const row of source.rows) {
    if (row.sheet !== sheet) flush()
    sheet = row.sheet ?? ''
    if (plain && row.cells.some((cell) => cell.includes('\u0000') || cell.includes('\u0001'))) plain = false
    batch.push(`${row.rowNumber}${row.hidden ? 'h' : ''}\u0000${row.kinds ?? ''}\u0000${row.cells.join('\u0000')}`)
    objects.push(row)
    if (batch.length >= batchSize) flush()
  }
  flush()
  port.postMessage({
    type: 'done',
    sheet: source.sheetName(),
    sheets: source.sheetNames?.() ?? [],
    hidden: source.hiddenSheets?.() ?? [],
  })
} catch (error) {
  port.postMessage({ type: 'error', error: serializeError(error) })
}
