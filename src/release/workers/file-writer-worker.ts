/** @module release/workers: worker entry: appends the text it is sent to a new file; `null` closes it. */
import { parentPort, workerData } from 'node:worker_threads'
import { BufferedFileWriter } from '../io/buffered-file-writer.js'
import { type SerializedError, serializeError } from './worker-error.js'

export type FileWriterMessage = { type: 'closed'; sha256: string } | { type: 'error'; error: SerializedError }

const port = parentPort as NonNullable<typeof parentPort>
const post = (message: FileWriterMessage) => port.postMessage(message)

try {
  const file = new BufferedFileWriter((workerData as { path: string }).path)
  port.on('message', (text: string | null) => {
    try {
      if (text !== null) {
        file.write(text)
        return
      }
      file.close()
      post({ type: 'closed', sha256: file.sha256() })
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
