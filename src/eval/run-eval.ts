/**
 * @module eval: an eval run = env id + dataset rows + policies + concurrency. `workers: N` means N
 * threads run episodes: this one plus N-1 worker threads, all pulling chunks from one queue, so a
 * 2-core machine runs 2 episode threads, not 2 workers beside an idle main thread.
 */
import { Worker } from 'node:worker_threads'
import type { DatasetRow } from '../core/env/env-dataset.js'
import { envRegistry, policyRegistry } from '../envs/index.js'
import { type EpisodeRecord, rowWithoutPrompt } from './episode-record.js'
import type { EvalWorkerData, FromWorker, ToWorker } from './eval-worker-protocol.js'
import { decodeRecords } from './record-batch.js'
import { createEpisodeRunner, type EpisodeTask } from './run-episodes.js'

export interface RunEvalOptions {
  envId: string
  rows: readonly DatasetRow[]
  policies: readonly string[]
  /** Threads running episodes (this one included). */
  workers?: number
  recordSteps?: boolean
  maxEpisodeSteps?: number
  /** Episodes per chunk taken from the queue (and between progress callbacks). */
  chunkSize?: number
  onProgress?: (done: number, total: number) => void
}

export function episodeTasks(rowCount: number, policies: readonly string[]): EpisodeTask[] {
  const tasks: EpisodeTask[] = []
  for (const policy of policies) {
    for (let rowIndex = 0; rowIndex < rowCount; rowIndex++) tasks.push({ index: tasks.length, rowIndex, policy })
  }
  return tasks
}

/** The worker script; under tsx (tests, bench) this module is TypeScript and the worker registers tsx first. */
function createWorker(data: EvalWorkerData): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./eval-worker.js', import.meta.url), { workerData: data })
  const entry = new URL('./eval-worker.ts', import.meta.url).href
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}) })`
  return new Worker(bootstrap, { eval: true, workerData: data })
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Threads to start: as asked (at least one), never more than there are chunks. */
export function evalThreadCount(options: { tasks: number; chunkSize: number; workers: number | undefined }): number {
  return Math.min(Math.max(1, Math.floor(options.workers ?? 1)), Math.ceil(options.tasks / options.chunkSize) || 1)
}

/** The shared queue every thread takes chunks from, and the records in task order. */
interface EvalQueue {
  take(): EpisodeTask[]
  store(batch: readonly EpisodeRecord[]): void
  records: EpisodeRecord[]
  /** The first worker failure: no more chunks are handed out after it. */
  failure: Error | undefined
}

export function evalQueue(tasks: readonly EpisodeTask[], chunkSize: number, onProgress: RunEvalOptions['onProgress']): EvalQueue {
  let next = 0
  let done = 0
  const queue: EvalQueue = {
    records: new Array(tasks.length),
    failure: undefined,
    take() {
      const chunk = tasks.slice(next, next + chunkSize)
      next += chunk.length
      return chunk
    },
    store(batch) {
      for (const record of batch) queue.records[record.index] = record
      done += batch.length
      onProgress?.(done, tasks.length)
    },
  }
  return queue
}

/** One worker thread's run: fed two chunks ahead until the queue is empty; a failure is kept on the queue. */
function runWorkerThread(worker: Worker, queue: EvalQueue, rows: readonly DatasetRow[]): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    // Keep two chunks queued in each worker so it never idles while this thread runs its own chunk.
    let inFlight = 0
    const feed = () => {
      const chunk = queue.failure ? [] : queue.take()
      if (chunk.length > 0) {
        inFlight++
        worker.postMessage({ type: 'tasks', tasks: chunk } satisfies ToWorker)
      } else if (inFlight === 0) {
        worker.postMessage({ type: 'stop' } satisfies ToWorker)
        resolve()
      }
    }
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'error') return reject(new Error(`eval worker failed: ${message.message}`))
      if (message.type === 'ready') {
        feed()
        feed()
        return
      }
      inFlight--
      // Workers leave the row out (this thread has it) to keep messages small.
      const batch = decodeRecords(message.batch)
      for (const record of batch) record.row = rowWithoutPrompt(rows[record.rowIndex] as DatasetRow)
      queue.store(batch)
      feed()
    })
    worker.on('error', reject)
    worker.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`eval worker exited with code ${code}`))))
  }).catch((error: Error) => {
    queue.failure ??= error
  })
}

export async function runEval(options: RunEvalOptions): Promise<EpisodeRecord[]> {
  // Fail fast on unknown names before any thread starts.
  envRegistry.get(options.envId)
  for (const policy of options.policies) policyRegistry.get(options.envId, policy)
  const tasks = episodeTasks(options.rows.length, options.policies)
  const chunkSize = Math.max(1, options.chunkSize ?? 250)
  const threadCount = evalThreadCount({ tasks: tasks.length, chunkSize, workers: options.workers })
  const queue = evalQueue(tasks, chunkSize, options.onProgress)
  const episodeOptions = {
    recordSteps: options.recordSteps ?? false,
    ...(options.maxEpisodeSteps === undefined ? {} : { maxEpisodeSteps: options.maxEpisodeSteps }),
  }
  const workers: Worker[] = []
  const workerRuns = Array.from({ length: threadCount - 1 }, () => {
    const worker = createWorker({ envId: options.envId, rows: [...options.rows], ...episodeOptions })
    workers.push(worker)
    return runWorkerThread(worker, queue, options.rows)
  })
  const runTask = createEpisodeRunner({
    envId: options.envId,
    rows: options.rows,
    envs: envRegistry,
    policies: policyRegistry,
    ...episodeOptions,
  })
  try {
    for (let chunk = queue.take(); chunk.length > 0 && !queue.failure; chunk = queue.take()) {
      queue.store(chunk.map(runTask))
      // Let worker messages and progress redraws through between chunks.
      if (workers.length > 0 || options.onProgress) await nextTurn()
    }
    await Promise.all(workerRuns)
  } finally {
    for (const worker of workers) void worker.terminate()
  }
  if (queue.failure) throw queue.failure
  return queue.records
}
