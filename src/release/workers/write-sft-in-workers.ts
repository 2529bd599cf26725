/**
 * @module release/workers: writes the three legacy SFT splits with two worker threads. This thread builds
 * the train rows and streams them, as column batches, to the train writer; val and test are built and written by the
 * second worker. Each file has exactly one writer, so its bytes never depend on the scheduling. The workers
 * can be started ahead of their jobs (`SftWriters.start`), so their start-up overlaps work still to be done here.
 */
import type { Worker } from 'node:worker_threads'
import { InternalInvariantError } from '../../core/errors/internal-invariant-error.js'
import type { GradingTask } from '../../envs/grading/grading-task.js'
import { LegacyPromptBuilder } from '../../envs/grading/legacy/legacy-prompts.js'
import type { SplitName } from '../contracts/canonical-record.js'
import { batchTransfers, type ColumnBatch } from '../parquet/plain-columns.js'
import type { RecordRowInput } from '../planning/record-plan.js'
import { LegacySftBatchBuilder, legacySftBatches } from '../sft/legacy-sft-batches.js'
import type { SftParentMessage, SftWorkerData, SftWorkerJob, SftWorkerMessage } from './sft-export-protocol.js'
import { startWorker, workerDone } from './start-worker.js'
import { deserializeError } from './worker-error.js'

/** Batches (row groups of 8,192 rows) built ahead of the writer. */
const maxBatchesInFlight = 3

interface Listeners {
  hashes: Record<string, string>
  onWritten?: (split: string) => void
  /** Receives every written streamed batch, for its buffers. */
  onAck?: (batch: ColumnBatch) => void
}

class RunningWorker {
  readonly worker: Worker
  readonly done: Promise<void>
  listeners: Listeners = { hashes: {} }
  private failure: Error | undefined
  private acks = 0
  private waiting: (() => void) | undefined

  constructor(assets: SftWorkerData['assets']) {
    this.worker = startWorker({ entry: 'sft-export-worker', workerData: { assets } satisfies SftWorkerData })
    this.worker.on('message', (message: SftWorkerMessage) => {
      if (message.type === 'written') {
        this.listeners.hashes[message.split] = message.sha256
        this.listeners.onWritten?.(message.split)
      } else if (message.type === 'ack') {
        this.listeners.onAck?.(message.batch)
        this.acks++
        this.waiting?.()
      } else if (message.type === 'error') {
        this.failure = deserializeError(message.error)
        this.waiting?.()
      }
    })
    this.done = workerDone(this.worker).then(() => {
      if (this.failure) throw this.failure
    })
    this.done.catch(() => this.waiting?.())
  }

  send(message: SftParentMessage, transfer?: ArrayBuffer[]): void {
    this.worker.postMessage(message, transfer)
  }

  /** Resolves on the next `ack` from the worker (or when it has failed). */
  acked(): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.acks > 0 || this.failure) {
        if (this.acks > 0) this.acks--
        resolve()
        return
      }
      this.waiting = () => {
        this.waiting = undefined
        if (this.acks > 0) this.acks--
        resolve()
      }
    })
  }
}

/** The two writer threads: started with the task, given their jobs later by `writeSftInWorkers`. */
export class SftWriters {
  private used = false

  private constructor(
    readonly train: RunningWorker,
    readonly rest: RunningWorker,
  ) {
    // A failure surfaces where the jobs are awaited; until then it must not count as unhandled.
    train.done.catch(() => {})
    rest.done.catch(() => {})
  }

  static start(assets: SftWorkerData['assets']): SftWriters {
    return new SftWriters(new RunningWorker(assets), new RunningWorker(assets))
  }

  /** Marks the writers as given their jobs (each pair serves one export). */
  take(): this {
    if (this.used) throw new InternalInvariantError('these SFT writers have already served an export')
    this.used = true
    return this
  }

  /** Stops both workers (when the export will not happen, or has failed). */
  async close(): Promise<void> {
    await Promise.all([this.train.worker.terminate(), this.rest.worker.terminate()])
  }
}

/** Builds the rows here, a batch at a time, and streams them to the writer with bounded buffering. */
async function feed(
  writer: RunningWorker,
  options: { batches: LegacySftBatchBuilder; inputs: readonly RecordRowInput[] },
): Promise<void> {
  let inFlight = 0
  let settled = false
  writer.done
    .catch(() => {})
    .finally(() => {
      settled = true
    })
  for (const batch of legacySftBatches(options)) {
    writer.send({ type: 'batch', batch }, batchTransfers(batch))
    if (++inFlight >= maxBatchesInFlight) {
      await writer.acked()
      inFlight--
      if (settled) return
    }
  }
  writer.send({ type: 'end' })
}

export async function writeSftInWorkers(options: {
  task: GradingTask
  assets: SftWorkerData['assets']
  jobs: Record<SplitName, Required<SftWorkerJob>>
  onWritten?: (split: string) => void
  /** Writers started earlier with the same assets; started here when absent. Closed when done either way. */
  writers?: SftWriters
}): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {}
  const writers = options.writers?.take() ?? SftWriters.start(options.assets)
  try {
    const fields = options.task.taskConfig.metadata_fields
    const batches = new LegacySftBatchBuilder(new LegacyPromptBuilder(options.task, fields), fields)
    const onWritten = options.onWritten ? { onWritten: options.onWritten } : {}
    writers.train.listeners = { hashes, ...onWritten, onAck: (batch) => batches.recycle(batch) }
    writers.rest.listeners = { hashes, ...onWritten }
    writers.train.send({ type: 'jobs', jobs: [{ split: 'train', path: options.jobs.train.path }] })
    writers.rest.send({ type: 'jobs', jobs: [options.jobs.val, options.jobs.test] })
    await Promise.all([
      feed(writers.train, { batches, inputs: options.jobs.train.inputs }),
      writers.train.done,
      writers.rest.done,
    ])
    return hashes
  } finally {
    await writers.close()
  }
}
