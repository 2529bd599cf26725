/** @module release/workers: worker entry: streams a worksheet's rows to the parent thread in batches. */
import { parentPort, workerData } from 'node:worker_threads'
import { readXlsxRows } from '../xlsx/read-xlsx-rows.js'
import { serializeError } from './worker-error.js'

const { path, sheets, batchSize } = workerData as { path: string; sheets?: string[]; batchSize: number }
const port = parentPort as NonNullable<typeof parentPort>

try {
  const source = readXlsxRows({ path, ...(sheets === undefined ? {} : { sheets }) })
  // Rows travel as one string per batch: "row\0cell\0cell…" joined by "\u0001". XML 1.0 cannot carry
  // U+0000 or U+0001, so no cell contains them, and one string clones far faster than nested arrays.
  // A batch holds the rows of one sheet.
  let batch: string[] = []
  let sheet = ''
  const flush = () => {
    if (batch.length > 0) port.postMessage({ type: 'rows', sheet, text: batch.join('\u0001') })
    batch = []
  }
  for await (const row of source.rows) {
    if (row.sheet !== sheet) flush()
    sheet = row.sheet ?? ''
    batch.push(`${row.rowNumber}\u0000${row.cells.join('\u0000')}`)
    if (batch.length >= batchSize) flush()
  }
  flush()
  port.postMessage({ type: 'done', sheet: source.sheetName(), sheets: source.sheetNames?.() ?? [] })
} catch (error) {
  port.postMessage({ type: 'error', error: serializeError(error) })
}
