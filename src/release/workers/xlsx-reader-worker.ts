/** @module release/workers: worker entry: streams a worksheet's rows to the parent thread in batches. */
import { parentPort, workerData } from 'node:worker_threads'
import { readXlsxRows } from '../xlsx/read-xlsx-rows.js'
import { serializeError } from './worker-error.js'

const { path, sheet, batchSize } = workerData as { path: string; sheet?: string; batchSize: number }
const port = parentPort as NonNullable<typeof parentPort>

try {
  const source = readXlsxRows({ path, ...(sheet === undefined ? {} : { sheet }) })
  // Rows travel as one string per batch: "row\0cell\0cell…" joined by "\u0001". XML 1.0 cannot carry
  // U+0000 or U+0001, so no cell contains them, and one string clones far faster than nested arrays.
  let batch: string[] = []
  for await (const row of source.rows) {
    batch.push(`${row.rowNumber}\u0000${row.cells.join('\u0000')}`)
    if (batch.length >= batchSize) {
      port.postMessage({ type: 'rows', sheet: source.sheetName(), text: batch.join('\u0001') })
      batch = []
    }
  }
  if (batch.length > 0) port.postMessage({ type: 'rows', sheet: source.sheetName(), text: batch.join('\u0001') })
  port.postMessage({ type: 'done', sheet: source.sheetName() })
} catch (error) {
  port.postMessage({ type: 'error', error: serializeError(error) })
}
