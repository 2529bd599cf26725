/**
 * @module release/workers: the same row stream as `readXlsxRows`, with ExcelJS parsing in a worker thread so
 * the caller's per-row work overlaps the XML parsing (the reader is the slowest part of preprocessing).
 */
import { existsSync } from 'node:fs'
import type { Worker } from 'node:worker_threads'
import { readXlsxRows, type XlsxRow, type XlsxRowSource } from '../xlsx/read-xlsx-rows.js'
import { startWorker } from './start-worker.js'
import { deserializeError, type SerializedError } from './worker-error.js'

type Message =
  | { type: 'rows'; sheet: string; text: string }
  | { type: 'done'; sheet: string }
  | { type: 'error'; error: SerializedError }

export function readXlsxRowsInWorker(options: { path: string; sheet?: string }): XlsxRowSource {
  // Missing files and wrong extensions fail here, synchronously, exactly as the in-thread reader does.
  if (!existsSync(options.path) || !options.path.toLowerCase().endsWith('.xlsx')) return readXlsxRows(options)
  let sheet = options.sheet ?? ''
  async function* rows(): AsyncGenerator<XlsxRow> {
    const worker: Worker = startWorker({
      entry: 'xlsx-reader-worker',
      workerData: { path: options.path, sheet: options.sheet, batchSize: 500 },
    })
    const queue: Message[] = []
    let wake: (() => void) | undefined
    let failure: Error | undefined
    worker.on('message', (message: Message) => {
      queue.push(message)
      wake?.()
    })
    worker.on('error', (error) => {
      failure = error
      wake?.()
    })
    worker.on('exit', (code) => {
      if (code !== 0 && !failure) failure = new Error(`xlsx reader worker exited with code ${code}`)
      wake?.()
    })
    try {
      for (;;) {
        const message = queue.shift()
        if (!message) {
          if (failure) throw failure
          await new Promise<void>((resolve) => {
            wake = resolve
          })
          wake = undefined
          continue
        }
        if (message.type === 'error') throw deserializeError(message.error)
        sheet = message.sheet
        if (message.type === 'done') return
        for (const line of message.text.split('\u0001')) {
          const cells = line.split('\u0000')
          yield { rowNumber: Number(cells.shift()), cells }
        }
      }
    } finally {
      await worker.terminate()
    }
  }
  return { rows: rows(), sheetName: () => sheet }
}
