/**
 * Shared set-up of the trajectory release tests: demo data run through the part-1 line (canonical records
 * with splits), the task files as CLI arguments and library options, and helpers to rewrite a release.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ChatTool } from '../src/chat/chat-message.js'
import { gradingV1Spec } from '../src/envs/grading/grading-env.js'
import type { GradingTask } from '../src/envs/grading/grading-task.js'
import { sha256Hex } from '../src/io/sha256.js'
import { demoLayout } from '../src/release/demo/write-demo-data.js'
import { loadTaskFiles } from '../src/release/inputs/load-task-files.js'
import { NestedParquetWriter } from '../src/release/parquet/nested-parquet-writer.js'
import { runDemoPipeline } from '../src/release/pipeline/run-pipeline.js'
import { resolveGrading } from '../src/release/planning/task-options.js'
import { readTrajectoryRows } from '../src/release/trajectories/read-trajectory-rows.js'
import { trajectoryColumns } from '../src/release/trajectories/trajectory-columns.js'
import { trajectoryTools as envTools } from '../src/release/trajectories/trajectory-tools.js'
import { temporaryDirectory } from './support/release-fixture.js'

export interface TrajectoryFixture {
  root: string
  canonical: string
  datasets: string
  /** Task file options (library form). */
  taskOptions: { dataset: string; registry: string; corpus: string; taskConfig: string; gradingManifest: string }
  /** The same as CLI flags. */
  taskArgs: string[]
  task: GradingTask
  tools: ChatTool[]
}

export async function trajectoryFixture(options: { rows?: number } = {}): Promise<TrajectoryFixture> {
  const root = temporaryDirectory('trajectories')
  const out = join(root, 'line')
  await runDemoPipeline({ out, rows: options.rows ?? 300 })
  const demo = join(out, 'demo')
  const taskOptions = {
    dataset: 'steel_demo',
    registry: join(demo, demoLayout.registry),
    corpus: join(demo, demoLayout.corpus),
    taskConfig: join(demo, demoLayout.task),
    gradingManifest: join(demo, demoLayout.gradingManifest),
  }
  const task = loadTaskFiles({ ...taskOptions, grading: resolveGrading(taskOptions) }).task
  return {
    root,
    canonical: join(out, 'run/canonical/steel_demo/all.json'),
    datasets: join(demo, demoLayout.datasets),
    taskOptions,
    taskArgs: [
      '--dataset',
      taskOptions.dataset,
      '--registry',
      taskOptions.registry,
      '--corpus',
      taskOptions.corpus,
      '--task-config',
      taskOptions.taskConfig,
      '--grading-manifest',
      taskOptions.gradingManifest,
    ],
    task,
    tools: envTools(gradingV1Spec),
  }
}

/** Every row of one split of a release, as our reader returns them (null keys dropped). */
export function readSplit(dir: string, split: string, task: GradingTask): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = []
  readTrajectoryRows({
    bytes: readFileSync(join(dir, `${split}.parquet`)),
    metadataFields: task.taskConfig.metadata_fields,
    tools: envTools(gradingV1Spec),
    onRow: (row) => rows.push(structuredClone(row)),
    onError: (message) => {
      throw new Error(message)
    },
  })
  return rows
}

/**
 * Rewrites a split with `rows` and, like a careful forger, updates the export report's row count and file
 * hashes, so only the row-level checks can catch the change.
 */
export function rewriteSplit(options: {
  dir: string
  split: string
  rows: readonly Record<string, unknown>[]
  task: GradingTask
}): void {
  const path = join(options.dir, `${options.split}.parquet`)
  rmSync(path)
  const writer = new NestedParquetWriter(
    path,
    trajectoryColumns({ tools: envTools(gradingV1Spec), metadataFields: options.task.taskConfig.metadata_fields }),
  )
  for (const row of options.rows) writer.add(row)
  const sha256 = writer.finish()
  const reportPath = join(options.dir, 'export_report.json')
  const report = JSON.parse(readFileSync(reportPath, 'utf8'))
  report.splits[options.split].parquet_sha256 = sha256
  report.splits[options.split].rows = options.rows.length
  report.release.artifacts_sha256[`${options.split}.parquet`] = sha256
  writeFileSync(reportPath, `${JSON.stringify(report, null, 2)}\n`)
}

export const fileSha256 = (path: string) => sha256Hex(readFileSync(path))
