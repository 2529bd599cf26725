/**
 * @module release/workers: a new file written by a worker thread: this thread hands over text in batches
 * (one string per ~1M characters: a single copy), the worker encodes, hashes and writes it. Keeps the
 * encoding and the system calls off a thread that has other work.
 */
import type { Worker } from 'node:worker_threads'
import type { TextSink } from '../../io/record-array-file.js'
import type { FileWriterJob, FileWriterMessage } from './file-writer-worker.js'
import { settleable } from './settleable.js'
import { startWorker } from './start-worker.js'
import { deserializeError } from './worker-error.js'

export class BackgroundFileWriter implements TextSink {
  private readonly worker: Worker
  private readonly closed: Promise<string>
  private parts: string[] = []
  private characters = 0

  constructor(
    path: string,
    private readonly options: { batchCharacters?: number } = {},
  ) {
    this.worker = startWorker({ entry: 'file-writer-worker', workerData: { path } })
    const closed = settleable<string>()
    this.closed = closed.promise
    // Settling a settled promise does nothing: a failure reaches `close` if it is still awaited.
    const failed = (error: Error) => closed.reject(error)
    this.worker.on('message', (message: FileWriterMessage) => {
      if (message.type === 'closed') closed.resolve(message.sha256)
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
    this.flush()
    this.worker.postMessage(null satisfies FileWriterJob)
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
