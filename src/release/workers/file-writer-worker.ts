/**
 * @module release/workers: worker entry: appends the text it is sent to a new file; `null` closes it (with
 * `keep`, sending the file's bytes back). An `extend` job writes a record file extending a base one instead
 * (see `writeRecordArrayInWorker`), and closes it.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { BufferedFileWriter } from '../io/buffered-file-writer.js'
import { extendRecordArray, type Suffixes } from '../io/extend-record-array.js'
import { type SerializedError, serializeError } from './worker-error.js'

export type FileWriterMessage = { type: 'closed'; sha256: string; bytes?: Uint8Array } | { type: 'error'; error: SerializedError }

export type FileWriterJob =
  | string
  | null
  | { type: 'extend'; base: Uint8Array; suffixes: Suffixes; checks: ReadonlyMap<number, string> }

const port = parentPort as NonNullable<typeof parentPort>
const { path, keep } = workerData as { path: string; keep?: boolean }

try {
  const file = new BufferedFileWriter(path, undefined, keep)
  port.on('message', (job: FileWriterJob) => {
    try {
      if (typeof job === 'string') {
        file.write(job)
        return
      }
      if (job !== null) extendRecordArray(job.base, job.suffixes, file, job.checks)
      file.close()
      const bytes = keep ? file.keptBytes() : undefined
      port.postMessage(
        { type: 'closed', sha256: file.sha256(), ...(bytes ? { bytes } : {}) } satisfies FileWriterMessage,
        bytes ? [bytes.buffer as ArrayBuffer] : [],
      )
    } catch (error) {
      port.postMessage({ type: 'error', error: serializeError(error) } satisfies FileWriterMessage)
    }
    port.close()
  })
} catch (error) {
  port.postMessage({ type: 'error', error: serializeError(error) } satisfies FileWriterMessage)
  port.close()
}
