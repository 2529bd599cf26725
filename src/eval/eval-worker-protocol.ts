/** @module eval: messages between the eval main thread and its workers. */
import type { DatasetRow } from '../core/env/env-dataset.js'
import type { RecordBatch } from './record-batch.js'
import type { EpisodeTask } from './run-episodes.js'

export interface EvalWorkerData {
  envId: string
  rows: DatasetRow[]
  recordSteps: boolean
  maxEpisodeSteps?: number
}

export type ToWorker = { type: 'tasks'; tasks: EpisodeTask[] } | { type: 'stop' }

export type FromWorker = { type: 'ready' } | { type: 'records'; batch: RecordBatch } | { type: 'error'; message: string }
