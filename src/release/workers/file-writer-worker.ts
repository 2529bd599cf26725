/**
 * @module release/workers: worker entry: appends the text it is sent to a new file; `null` closes it. With
 * `keep`, the bytes of a record file are kept after closing, for one `extend` job: a second record file whose
 * records are these records with more keys after their own (see `BackgroundFileWriter.writeExtended`).
 */
import { parentPort, workerData } from 'node:worker_threads'
import { BufferedFileWriter } from '../io/buffered-file-writer.js'
import { extendRecordArray, type Suffixes } from '../io/extend-record-array.js'
import { type SerializedError, serializeError } from './worker-error.js'

export type FileWriterMessage =
  | { type: 'closed'; sha256: string }
  | { type: 'extended'; count: number; sha256: string }
  | { type: 'error'; error: SerializedError }

export type FileWriterJob = string | null | { type: 'extend'; path: string; suffixes: Suffixes }

const port = parentPort as NonNullable<typeof parentPort>
const post = (message: FileWriterMessage) => port.postMessage(message)
const { path, keep } = workerData as { path: string; keep?: boolean }

try {
  const file = new BufferedFileWriter(path, undefined, keep)
  port.on('message', (job: FileWriterJob) => {
    try {
      if (typeof job === 'string') {
        file.write(job)
        return
      }
      if (job === null) {
        file.close()
        post({ type: 'closed', sha256: file.sha256() })
        if (!keep) port.close()
        return
      }
      const extended = new BufferedFileWriter(job.path)
      const count = extendRecordArray(file.keptBytes(), job.suffixes, extended)
      extended.close()
      post({ type: 'extended', count, sha256: extended.sha256() })
      port.close()
    } catch (error) {
      post({ type: 'error', error: serializeError(error) })
      port.close()
    }
  })
} catch (error) {
  post({ type: 'error', error: serializeError(error) })
  port.close()
}
