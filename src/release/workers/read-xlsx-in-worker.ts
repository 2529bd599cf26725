/**
 * @module release/workers: the same row stream as `readXlsxRows`, with the XML parsing in a worker thread so
 * the caller's per-row work overlaps the XML parsing (the reader is the slowest part of preprocessing).
 */
import { existsSync } from 'node:fs'
import type { Worker } from 'node:worker_threads'
import { detectInputFormat } from '../xlsx/detect-input-format.js'
import { readXlsxRows } from '../xlsx/read-xlsx-rows.js'
import type { SheetRow, SheetRowSource } from '../xlsx/sheet-row.js'
import { startWorker } from './start-worker.js'
import { deserializeError, type SerializedError } from './worker-error.js'

type Message =
  | { type: 'rows'; sheet: string; text: string }
  | { type: 'objects'; sheet: string; rows: SheetRow[] }
  | { type: 'done'; sheet: string; sheets: string[]; hidden: string[] }
  | { type: 'error'; error: SerializedError }

/** A row source whose worker may be running before iteration starts; `close` stops it if never read. */
export interface WorkerRowSource extends SheetRowSource {
  /** The same rows in the batches the worker sends (read one or the other, not both). */
  batches: AsyncIterable<SheetRow[]>
  close(): Promise<void>
}

/** Rows as batches of one (for a source that has no batches of its own). */
export async function* oneByOne<T>(rows: AsyncIterable<T>): AsyncGenerator<T[]> {
  for await (const row of rows) yield [row]
}

/**
 * A batch the worker sent as text: rows joined by U+0001; in each, the row number (then `h` when hidden),
 * U+0000, the cells' kind letters, U+0000, the cells joined by U+0000.
 */
export function decodeRowBatch(text: string, sheet: string): SheetRow[] {
  const batch: SheetRow[] = []
  for (const line of text.split('\u0001')) {
    const end = line.indexOf('\u0000')
    const kindsEnd = line.indexOf('\u0000', end + 1)
    const head = line.slice(0, end)
    const row: SheetRow = { rowNumber: Number.parseInt(head, 10), cells: line.slice(kindsEnd + 1).split('\u0000'), sheet }
    if (kindsEnd > end + 1) row.kinds = line.slice(end + 1, kindsEnd)
    if (head.endsWith('h')) row.hidden = true
    batch.push(row)
  }
  return batch
}

/** A running reader worker and the messages it has sent that were not read yet. */
interface ReaderWorker {
  worker: Worker
  queue: Message[]
  wake: (() => void) | undefined
  failure: Error | undefined
}

function startReaderWorker(options: { path: string; sheets?: readonly string[] }): ReaderWorker {
  const worker: Worker = startWorker({
    entry: 'xlsx-reader-worker',
    workerData: { path: options.path, sheets: options.sheets, batchSize: 500 },
  })
  const state: ReaderWorker = { worker, queue: [], wake: undefined, failure: undefined }
  worker.on('message', (message: Message) => {
    state.queue.push(message)
    state.wake?.()
  })
  worker.on('error', (error) => {
    state.failure = error
    state.wake?.()
  })
  worker.on('exit', (code) => {
    if (code !== 0 && !state.failure) state.failure = new Error(`xlsx reader worker exited with code ${code}`)
    state.wake?.()
  })
  return state
}

/** The worker's next message, waiting for it; throws the worker's failure once nothing is left to read. */
async function nextMessage(state: ReaderWorker): Promise<Message> {
  for (;;) {
    const message = state.queue.shift()
    if (message) return message
    if (state.failure) throw state.failure
    await new Promise<void>((resolve) => {
      state.wake = resolve
    })
    state.wake = undefined
  }
}

/**
 * `eager`: start the worker now (loading the reader and parsing overlap whatever the caller does before it
 * iterates; rows wait in a queue), instead of on the first row asked for.
 */
export function readXlsxRowsInWorker(options: { path: string; sheets?: readonly string[]; eager?: boolean }): WorkerRowSource {
  // Missing files and files that are no workbook fail here, synchronously, as the in-thread reader does.
  if (!existsSync(options.path) || detectInputFormat(options.path) !== 'xlsx') {
    const source = readXlsxRows(options)
    return { ...source, batches: oneByOne(source.rows), close: async () => {} }
  }
  let sheet = options.sheets?.[0] ?? ''
  let names: string[] = []
  let hidden: string[] = []
  let started: ReaderWorker | undefined = options.eager ? startReaderWorker(options) : undefined
  async function* batches(): AsyncGenerator<SheetRow[]> {
    const state = started ?? startReaderWorker(options)
    started = state
    try {
      for (;;) {
        const message = await nextMessage(state)
        if (message.type === 'error') throw deserializeError(message.error)
        sheet = message.sheet
        if (message.type === 'done') {
          names = message.sheets
          hidden = message.hidden
          return
        }
        yield message.type === 'objects' ? message.rows : decodeRowBatch(message.text, sheet)
      }
    } finally {
      await state.worker.terminate()
    }
  }
  const batched = batches()
  async function* rows(): AsyncGenerator<SheetRow> {
    for await (const batch of batched) yield* batch
  }
  return {
    batches: batched,
    rows: rows(),
    sheetName: () => sheet,
    sheetNames: () => names,
    hiddenSheets: () => hidden,
    close: async () => {
      await started?.worker.terminate()
    },
  }
}
