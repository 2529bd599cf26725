/**
 * @module release/workers: a new file written by a worker thread: this thread hands over text in batches
 * (one string per ~1M characters: a single copy), the worker encodes, hashes and writes it. Keeps the
 * encoding and the system calls off a thread that has other work.
 */
import type { Worker } from 'node:worker_threads'
import { RecordArrayWriter, type TextSink } from '../io/record-array-file.js'
import type { FileWriterMessage } from './file-writer-worker.js'
import { startWorker } from './start-worker.js'
import { deserializeError } from './worker-error.js'

export class BackgroundFileWriter implements TextSink {
  private readonly worker: Worker
  private readonly closed: Promise<string>
  private parts: string[] = []
  private characters = 0

  constructor(
    path: string,
    private readonly batchCharacters = 1 << 20,
  ) {
    this.worker = startWorker({ entry: 'file-writer-worker', workerData: { path } })
    this.closed = new Promise<string>((resolve, reject) => {
      this.worker.on('message', (message: FileWriterMessage) => {
        if (message.type === 'closed') resolve(message.sha256)
        else reject(deserializeError(message.error))
      })
      this.worker.on('error', reject)
      this.worker.on('exit', (code) => reject(new Error(`the file writer stopped (exit code ${code}) before closing ${path}`)))
    })
    // A failure is reported by `close`; until then it must not count as unhandled.
    this.closed.catch(() => {})
  }

  write(text: string): void {
    this.parts.push(text)
    this.characters += text.length
    if (this.characters >= this.batchCharacters) this.flush()
  }

  private flush(): void {
    if (this.parts.length === 0) return
    this.worker.postMessage(this.parts.join(''))
    this.parts = []
    this.characters = 0
  }

  /** Writes what is left, closes the file and resolves with its SHA-256. */
  async close(): Promise<string> {
    this.flush()
    this.worker.postMessage(null)
    try {
      return await this.closed
    } finally {
      await this.worker.terminate()
    }
  }

  /** Stops writing (the caller removes the partial file). */
  async abandon(): Promise<void> {
    await this.worker.terminate()
  }
}

/**
 * `writeRecordArray` through a worker thread, yielding to the event loop every `yieldEvery` records so
 * work waiting on this thread (feeding other workers) keeps going. Resolves with the count and SHA-256.
 */
export async function writeRecordArrayInBackground(
  path: string,
  records: readonly unknown[],
  yieldEvery = 2048,
): Promise<{ count: number; sha256: string }> {
  const file = new BackgroundFileWriter(path)
  try {
    const writer = new RecordArrayWriter(file)
    for (let index = 0; index < records.length; index++) {
      writer.add(records[index])
      if ((index + 1) % yieldEvery === 0) await new Promise<void>((resolve) => setImmediate(resolve))
    }
    const count = writer.end()
    return { count, sha256: await file.close() }
  } catch (error) {
    await file.abandon()
    throw error
  }
}
