/**
 * @module release/workers: writes the three legacy SFT splits with two worker threads. This thread builds
 * the train rows and streams them, as column batches, to the train writer; val and test are built and written by the
 * second worker. Each file has exactly one writer, so its bytes never depend on the scheduling.
 */
import type { Worker } from 'node:worker_threads'
import type { GradingTask } from '../../envs/grading/grading-task.js'
import { LegacyPromptBuilder } from '../../envs/grading/legacy/legacy-prompts.js'
import type { SplitName } from '../contracts/canonical-record.js'
import { LegacySftBatchBuilder, legacySftBatches, type SftRowInput } from '../sft/legacy-sft-batches.js'
import { batchTransfers, type ColumnBatch } from '../sft/plain-columns.js'
import type { SftParentMessage, SftWorkerData, SftWorkerJob, SftWorkerMessage } from './sft-export-protocol.js'
import { startWorker, workerDone } from './start-worker.js'
import { deserializeError } from './worker-error.js'

/** Batches (row groups of 8,192 rows) built ahead of the writer. */
const maxBatchesInFlight = 3

interface RunningWorker {
  worker: Worker
  done: Promise<void>
  /** Resolves on the next `ack` from the worker. */
  acked(): Promise<void>
}

function run(options: {
  assets: SftWorkerData['assets']
  jobs: SftWorkerJob[]
  hashes: Record<string, string>
  onWritten?: (split: string) => void
  /** Receives every written streamed batch, for its buffers. */
  onAck?: (batch: ColumnBatch) => void
}): RunningWorker {
  const worker = startWorker({
    entry: 'sft-export-worker',
    workerData: { assets: options.assets, jobs: options.jobs } satisfies SftWorkerData,
  })
  let failure: Error | undefined
  let acks = 0
  let waiting: (() => void) | undefined
  worker.on('message', (message: SftWorkerMessage) => {
    if (message.type === 'written') {
      options.hashes[message.split] = message.sha256
      options.onWritten?.(message.split)
    } else if (message.type === 'ack') {
      options.onAck?.(message.batch)
      acks++
      waiting?.()
    } else if (message.type === 'error') {
      failure = deserializeError(message.error)
      waiting?.()
    }
  })
  const done = workerDone(worker).then(() => {
    if (failure) throw failure
  })
  done.catch(() => waiting?.())
  return {
    worker,
    done,
    acked: () =>
      new Promise<void>((resolve) => {
        if (acks > 0 || failure) {
          if (acks > 0) acks--
          resolve()
          return
        }
        waiting = () => {
          waiting = undefined
          if (acks > 0) acks--
          resolve()
        }
      }),
  }
}

/** Builds the rows here, a batch at a time, and streams them to the writer with bounded buffering. */
async function feed(
  writer: RunningWorker,
  options: { batches: LegacySftBatchBuilder; inputs: readonly SftRowInput[] },
): Promise<void> {
  let inFlight = 0
  let settled = false
  writer.done
    .catch(() => {})
    .finally(() => {
      settled = true
    })
  for (const batch of legacySftBatches(options)) {
    writer.worker.postMessage({ type: 'batch', batch } satisfies SftParentMessage, batchTransfers(batch))
    if (++inFlight >= maxBatchesInFlight) {
      await writer.acked()
      inFlight--
      if (settled) return
    }
  }
  writer.worker.postMessage({ type: 'end' } satisfies SftParentMessage)
}

export async function writeSftInWorkers(options: {
  task: GradingTask
  assets: SftWorkerData['assets']
  jobs: Record<SplitName, Required<SftWorkerJob>>
  onWritten?: (split: string) => void
}): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {}
  const common = { assets: options.assets, hashes, ...(options.onWritten ? { onWritten: options.onWritten } : {}) }
  const fields = options.task.taskConfig.metadata_fields
  const batches = new LegacySftBatchBuilder(new LegacyPromptBuilder(options.task, fields), fields)
  const train = run({
    ...common,
    jobs: [{ split: 'train', path: options.jobs.train.path }],
    onAck: (batch) => batches.recycle(batch),
  })
  const rest = run({ ...common, jobs: [options.jobs.val, options.jobs.test] })
  await Promise.all([feed(train, { batches, inputs: options.jobs.train.inputs }), train.done, rest.done])
  return hashes
}
