/**
 * @module release/workers: worker entry: writes legacy SFT Parquet files. It parses the task as soon as it
 * starts, then waits for its jobs. A job either builds its rows here or receives them from the parent as
 * column batches (then the parent builds while this thread writes).
 */
import { parentPort, workerData } from 'node:worker_threads'
import { parseCategoryCorpus } from '../../envs/grading/assets/category-corpus.js'
import { parseGradingConfig } from '../../envs/grading/assets/grading-config.js'
import { parseLeafRegistry } from '../../envs/grading/assets/leaf-registry.js'
import { parseTaskConfig } from '../../envs/grading/assets/task-config.js'
import { createGradingTask } from '../../envs/grading/grading-task.js'
import { LegacyPromptBuilder } from '../../envs/grading/legacy/legacy-prompts.js'
import { FixedShapeParquetWriter } from '../parquet/fixed-shape-parquet-writer.js'
import { batchTransfers, type ColumnBatch } from '../parquet/plain-columns.js'
import { LegacySftBatchBuilder, legacySftBatches } from '../sft/legacy-sft-batches.js'
import { legacySftColumns } from '../sft/legacy-sft-rows.js'
import type { SftParentMessage, SftWorkerData, SftWorkerJob, SftWorkerMessage } from './sft-export-protocol.js'
import { serializeError } from './worker-error.js'

const data = workerData as SftWorkerData
const port = parentPort as NonNullable<typeof parentPort>

const queued: ColumnBatch[] = []
let ended = false
let jobs: SftWorkerJob[] | undefined
let wake: (() => void) | undefined
port.on('message', (message: SftParentMessage) => {
  if (message.type === 'jobs') jobs = message.jobs
  else if (message.type === 'batch') queued.push(message.batch)
  else ended = true
  wake?.()
})

async function next(): Promise<void> {
  await new Promise<void>((resolve) => {
    wake = resolve
  })
  wake = undefined
}

/** Writes the parent's batches as they come, acknowledging each one. */
async function writeStreamed(writer: FixedShapeParquetWriter): Promise<void> {
  for (;;) {
    const batch = queued.shift()
    if (batch) {
      writer.writeRowGroup(batch)
      port.postMessage({ type: 'ack', batch } satisfies SftWorkerMessage, batchTransfers(batch))
      continue
    }
    if (ended) return
    await next()
  }
}

try {
  const task = createGradingTask({
    registry: parseLeafRegistry(data.assets.registry),
    corpus: parseCategoryCorpus(data.assets.corpus),
    grading: parseGradingConfig(data.assets.grading),
    taskConfig: parseTaskConfig(data.assets.taskConfig),
  })
  const fields = task.taskConfig.metadata_fields
  const batches = new LegacySftBatchBuilder(new LegacyPromptBuilder(task, fields), fields)
  while (!jobs) await next()
  for (const job of jobs) {
    const writer = new FixedShapeParquetWriter(job.path, legacySftColumns(fields))
    try {
      if (!job.inputs) await writeStreamed(writer)
      else
        for (const batch of legacySftBatches({ inputs: job.inputs, batches })) {
          writer.writeRowGroup(batch)
          batches.recycle(batch)
        }
    } catch (error) {
      writer.abandon()
      throw error
    }
    port.postMessage({ type: 'written', split: job.split, sha256: writer.finish() })
  }
  port.postMessage({ type: 'done' })
} catch (error) {
  port.postMessage({ type: 'error', error: serializeError(error) })
}
port.close()
