/** @module release/workers: worker entry: appends the text it is sent to a new file; `null` closes it. */
import { parentPort, workerData } from 'node:worker_threads'
import { BufferedFileWriter } from '../../io/buffered-file-writer.js'
import { type SerializedError, serializeError } from './worker-error.js'

export type FileWriterMessage = { type: 'closed'; sha256: string } | { type: 'error'; error: SerializedError }

export type FileWriterJob = string | null

const port = parentPort as NonNullable<typeof parentPort>
const { path } = workerData as { path: string }

try {
  const file = new BufferedFileWriter(path)
  port.on('message', (job: FileWriterJob) => {
    try {
      if (job !== null) {
        file.write(job)
        return
      }
      file.close()
      port.postMessage({ type: 'closed', sha256: file.sha256() } satisfies FileWriterMessage)
    } catch (error) {
      port.postMessage({ type: 'error', error: serializeError(error) } satisfies FileWriterMessage)
    }
    port.close()
  })
} catch (error) {
  port.postMessage({ type: 'error', error: serializeError(error) } satisfies FileWriterMessage)
  port.close()
}
