/** @module release/workers: the messages between the SFT exporter and its writer workers. */

import type { ColumnBatch } from '../parquet/plain-columns.js'
import type { RecordRowInput } from '../planning/record-plan.js'
import type { SerializedError } from './worker-error.js'

export interface SftWorkerJob {
  split: string
  path: string
  /** Rows to build in the worker; absent for a job whose rows the parent streams as column batches. */
  inputs?: RecordRowInput[]
}

export interface SftWorkerData {
  /** Already validated task assets, as JSON values (re-parsed cheaply in the worker). */
  assets: { registry: unknown; corpus: unknown; grading: unknown; taskConfig: unknown }
}

export type SftWorkerMessage =
  | { type: 'written'; split: string; sha256: string }
  /** A streamed batch is written; its buffers come back for reuse. */
  | { type: 'ack'; batch: ColumnBatch }
  | { type: 'done' }
  | { type: 'error'; error: SerializedError }

/** A worker starts (loads its modules, parses the task) before its jobs come: they are the first message. */
export type SftParentMessage = { type: 'jobs'; jobs: SftWorkerJob[] } | { type: 'batch'; batch: ColumnBatch } | { type: 'end' }
