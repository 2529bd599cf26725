/**
 * @module release/workers: a new file written by a worker thread: this thread hands over text in batches
 * (one string per ~1M characters: a single copy), the worker encodes, hashes and writes it. Keeps the
 * encoding and the system calls off a thread that has other work.
 */
import type { Worker } from 'node:worker_threads'
import type { Suffixes } from '../io/extend-record-array.js'
import type { TextSink } from '../io/record-array-file.js'
import type { FileWriterJob, FileWriterMessage } from './file-writer-worker.js'
import { settleable } from './settleable.js'
import { startWorker } from './start-worker.js'
import { deserializeError } from './worker-error.js'

/** A closed file's SHA-256, and its bytes when the writer was made with `keep`. */
export interface ClosedFile {
  sha256: string
  bytes?: Uint8Array
}

export class BackgroundFileWriter implements TextSink {
  private readonly worker: Worker
  private readonly closed: Promise<ClosedFile>
  private parts: string[] = []
  private characters = 0

  /** `keep`: `closeKeeping` hands the file's bytes back to this thread (moved, not copied). */
  constructor(
    path: string,
    private readonly options: { keep?: boolean; batchCharacters?: number } = {},
  ) {
    this.worker = startWorker({ entry: 'file-writer-worker', workerData: { path, keep: options.keep ?? false } })
    const closed = settleable<ClosedFile>()
    this.closed = closed.promise
    // Settling a settled promise does nothing: a failure reaches `close` if it is still awaited.
    const failed = (error: Error) => closed.reject(error)
    this.worker.on('message', (message: FileWriterMessage) => {
      if (message.type === 'closed') closed.resolve(message.bytes ? { sha256: message.sha256, bytes: message.bytes } : message)
      else failed(deserializeError(message.error))
    })
    this.worker.on('error', (error) => failed(error))
    this.worker.on('exit', (code) =>
      failed(new Error(`the file writer stopped (exit code ${code}) before it was done with ${path}`)),
    )
    // A failure is reported by `close`; until then it must not count as unhandled.
    this.closed.catch(() => {})
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
    return (await this.finish(null)).sha256
  }

  /** `close`, for a writer made with `keep`: resolves with the SHA-256 and the file's bytes. */
  async closeKeeping(): Promise<Required<ClosedFile>> {
    if (!this.options.keep) throw new Error('closeKeeping needs a writer made with keep')
    const closed = await this.finish(null)
    return closed as Required<ClosedFile>
  }

  /**
   * Instead of text, writes the record file that extends `base` (a record file's bytes, moved to the
   * worker) by `suffixes`, checking the records in `checks` (see `extendRecordArray`); closes the file.
   */
  async closeExtending(base: Uint8Array, suffixes: Suffixes & { ids: Int32Array }, checks: Map<number, string>): Promise<string> {
    if (this.parts.length > 0 || this.characters > 0) throw new Error('closeExtending needs a writer given no text')
    const job: FileWriterJob = { type: 'extend', base, suffixes, checks }
    return (await this.finish(job, [base.buffer as ArrayBuffer, suffixes.ids.buffer as ArrayBuffer])).sha256
  }

  private async finish(job: FileWriterJob, transfer: ArrayBuffer[] = []): Promise<ClosedFile> {
    this.flush()
    this.worker.postMessage(job, transfer)
    try {
      return await this.closed
    } finally {
      await this.worker.terminate()
    }
  }

  /** Stops writing (the caller removes any partial file). */
  async abandon(): Promise<void> {
    await this.worker.terminate()
  }
}
