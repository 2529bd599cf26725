/** @module eval: a worker thread that runs episode tasks the main thread hands out in chunks. */
import { parentPort, workerData } from 'node:worker_threads'
import { InternalInvariantError } from '../core/errors/internal-invariant-error.js'
import { envRegistry, policyRegistry } from '../envs/index.js'
import type { EvalWorkerData, FromWorker, ToWorker } from './eval-worker-protocol.js'
import { encodeRecords, transferables } from './record-batch.js'
import { createEpisodeRunner } from './run-episodes.js'

const data = workerData as EvalWorkerData
const port = parentPort
if (!port) throw new InternalInvariantError('eval-worker must run in a worker thread')

const runTask = createEpisodeRunner({
  envId: data.envId,
  rows: data.rows,
  envs: envRegistry,
  policies: policyRegistry,
  recordSteps: data.recordSteps,
  ...(data.maxEpisodeSteps === undefined ? {} : { maxEpisodeSteps: data.maxEpisodeSteps }),
})

port.on('message', (message: ToWorker) => {
  if (message.type === 'stop') {
    port.close()
    return
  }
  try {
    const batch = encodeRecords(message.tasks.map(runTask))
    const reply: FromWorker = { type: 'records', batch }
    port.postMessage(reply, transferables(batch))
  } catch (error) {
    const reply: FromWorker = { type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) }
    port.postMessage(reply)
  }
})
port.postMessage({ type: 'ready' } satisfies FromWorker)
