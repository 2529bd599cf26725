/**
 * @module release/workers: a new file written by a worker thread: this thread hands over text in batches
 * (one string per ~1M characters: a single copy), the worker encodes, hashes and writes it. Keeps the
 * encoding and the system calls off a thread that has other work.
 */
import type { Worker } from 'node:worker_threads'
import type { TextSink } from '../io/record-array-file.js'
import type { FileWriterJob, FileWriterMessage } from './file-writer-worker.js'
import { settleable } from './settleable.js'
import { startWorker } from './start-worker.js'
import { deserializeError } from './worker-error.js'

export class BackgroundFileWriter implements TextSink {
  private readonly worker: Worker
  private readonly closed: Promise<string>
  private readonly extended: Promise<{ count: number; sha256: string }>
  private parts: string[] = []
  private characters = 0

  /**
   * `keep`: the worker keeps the text (a record file's) after `close`, for one `writeExtended`; the caller
   * then ends the worker with `writeExtended` or `abandon`.
   */
  constructor(
    path: string,
    private readonly options: { keep?: boolean; batchCharacters?: number } = {},
  ) {
    this.worker = startWorker({ entry: 'file-writer-worker', workerData: { path, keep: options.keep ?? false } })
    const closed = settleable<string>()
    const extended = settleable<{ count: number; sha256: string }>()
    this.closed = closed.promise
    this.extended = extended.promise
    // Settling a settled promise does nothing: a failure reaches whatever is still awaited.
    const failed = (error: Error) => {
      closed.reject(error)
      extended.reject(error)
    }
    this.worker.on('message', (message: FileWriterMessage) => {
      if (message.type === 'closed') closed.resolve(message.sha256)
      else if (message.type === 'extended') extended.resolve({ count: message.count, sha256: message.sha256 })
      else failed(deserializeError(message.error))
    })
    this.worker.on('error', (error) => failed(error))
    this.worker.on('exit', (code) =>
      failed(new Error(`the file writer stopped (exit code ${code}) before it was done with ${path}`)),
    )
    // A failure is reported by `close` or `writeExtended`; until then it must not count as unhandled.
    this.closed.catch(() => {})
    this.extended.catch(() => {})
  }

  write(text: string): void {
    this.parts.push(text)
    this.characters += text.length
    if (this.characters >= (this.options.batchCharacters ?? 1 << 20)) this.flush()
  }

  private flush(): void {
    if (this.parts.length === 0) return
    this.worker.postMessage(this.parts.join('') satisfies FileWriterJob)
    this.parts = []
    this.characters = 0
  }

  /** Writes what is left, closes the file and resolves with its SHA-256. */
  async close(): Promise<string> {
    this.flush()
    this.worker.postMessage(null satisfies FileWriterJob)
    try {
      return await this.closed
    } finally {
      if (!this.options.keep) await this.worker.terminate()
    }
  }

  /**
   * After `close` of a record file written with `keep`: writes a new record file at `path` whose record
   * `i` is record `i` of this one with its suffix (`,"key":value…`, see `SuffixTable`) before its closing
   * brace (`ids` is handed over to the worker). Resolves
   * with the count and the new file's SHA-256, and ends the worker.
   */
  async writeExtended(path: string, suffixes: { texts: string[]; ids: Int32Array }): Promise<{ count: number; sha256: string }> {
    if (!this.options.keep) throw new Error('writeExtended needs a writer made with keep')
    this.worker.postMessage({ type: 'extend', path, suffixes } satisfies FileWriterJob, [suffixes.ids.buffer as ArrayBuffer])
    try {
      return await this.extended
    } finally {
      await this.worker.terminate()
    }
  }

  /** Stops writing (the caller removes any partial file). */
  async abandon(): Promise<void> {
    await this.worker.terminate()
  }
}
