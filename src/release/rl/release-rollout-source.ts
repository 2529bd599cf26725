/**
 * @module release/rl: a release split as the rollout gate's episodes. Accepts an RL release or an
 * `rl-cascade` mixture; checks that it passed, that the split file still hashes to what its report
 * recorded, and that the task files given are the ones it was built from (registry, corpus, task config,
 * and each dataset's grading standard, verified against the grading manifest's bytes). Episodes are the
 * stage-1 rows in file order (`limit` takes the first ones), each on its own dataset's task.
 */
import { join } from 'node:path'
import type { Env } from '../../core/env/env-api.js'
import { type InputIssue, InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { withStepLimit } from '../../core/wrappers/step-limit.js'
import { type GradingObservation, gradingV1Spec } from '../../envs/grading/grading-env.js'
import type { GradingTask } from '../../envs/grading/grading-task.js'
import { GradingRolloutEnv } from '../../eval/gate/grading-rollout-env.js'
import type { GateRow } from '../../eval/gate/run-gate-episodes.js'
import { readJsonFile } from '../../io/read-json-file.js'
import { sha256Hex } from '../../io/sha256.js'
import { loadTaskFiles } from '../inputs/load-task-files.js'
import { mixtureReleaseFormat } from '../mixtures/mixture-report.js'
import { gradingForDatasets } from '../planning/task-options.js'
import { readRlParquet } from './rl-parquet.js'
import { type RlRow, rlReleaseFormat } from './rl-row.js'

export interface ReleaseRolloutSource {
  rows: GateRow[]
  /** The rollout env of the release's tasks, with the grading step limit (three calls, then the answer). */
  createEnv: () => Env<GradingObservation>
  /** The same env without the step limit (what a scripted model replays on). */
  createBareEnv: () => GradingRolloutEnv
  release: Record<string, unknown>
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

interface Lineage {
  kind: 'rl' | 'rl-cascade'
  datasets: string[]
  metadataFields: string[]
  task: { registry: unknown; corpus: unknown; taskConfig: unknown }
  grading: Record<string, unknown>
}

function lineageOf(report: Record<string, unknown>, path: string): Lineage {
  const release = isObject(report.release) ? report.release : {}
  const fail = (message: string): never => {
    throw new InvalidInputError({ code: 'not_a_rollout_release', path, message, issues: [] })
  }
  if (release.status !== 'passed' || release.published !== true) fail(`${path} is not a passed, published release.`)
  if (report.format === rlReleaseFormat) {
    const inputs = isObject(report.inputs) ? report.inputs : {}
    const dataset = String(report.dataset)
    return {
      kind: 'rl',
      datasets: [dataset],
      metadataFields: (report.metadata_fields as string[]) ?? [],
      task: { registry: inputs.registry_sha256, corpus: inputs.corpus_sha256, taskConfig: inputs.task_config_sha256 ?? null },
      grading: { [dataset]: inputs.grading_sha256 },
    }
  }
  if (report.format === mixtureReleaseFormat && report.family === 'rl-cascade') {
    const task = isObject(report.task) ? report.task : {}
    const gradings =
      isObject(report.grading_manifest) && isObject(report.grading_manifest.datasets) ? report.grading_manifest.datasets : {}
    return {
      kind: 'rl-cascade',
      datasets: (report.datasets as string[]) ?? [],
      metadataFields: (task.metadata_fields as string[]) ?? [],
      task: { registry: task.registry_sha256, corpus: task.corpus_sha256, taskConfig: task.task_config_sha256 ?? null },
      grading: Object.fromEntries(
        Object.entries(gradings).map(([name, entry]) => [name, (entry as { sha256?: unknown }).sha256]),
      ),
    }
  }
  return fail(`${path} is neither an RL release (${rlReleaseFormat}) nor an rl-cascade mixture.`)
}

interface RolloutSourceOptions {
  directory: string
  split: string
  limit?: number
  registry: string
  corpus: string
  taskConfig?: string
  gradingManifest?: string
  gradingConfig?: string
}

/** What differs between the task files given and the ones a release recorded (one dataset's). */
export function taskMismatches(options: {
  dataset: string
  gradingSha256: unknown
  hashes: { registry: unknown; corpus: unknown; task_config: unknown }
  lineage: Pick<Lineage, 'task' | 'grading'>
}): InputIssue[] {
  const { dataset, hashes, lineage } = options
  const issues: InputIssue[] = []
  if (options.gradingSha256 !== lineage.grading[dataset])
    issues.push({
      code: 'release_task_mismatch',
      path: `grading:${dataset}`,
      message: 'the release was built from another grading standard',
    })
  if (hashes.registry !== lineage.task.registry)
    issues.push({ code: 'release_task_mismatch', path: '--registry', message: 'the release was built from another registry' })
  if (hashes.corpus !== lineage.task.corpus)
    issues.push({ code: 'release_task_mismatch', path: '--corpus', message: 'the release was built from another corpus' })
  if (hashes.task_config !== lineage.task.taskConfig)
    issues.push({
      code: 'release_task_mismatch',
      path: '--task-config',
      message: 'the release was built from another task config',
    })
  return issues
}

/** Each dataset's task, refused as a whole when any task file is not the one the release was built from. */
function loadReleaseTasks(options: RolloutSourceOptions, lineage: Lineage): Record<string, GradingTask> {
  const issues: InputIssue[] = []
  const tasks: Record<string, GradingTask> = {}
  const gradingOf = gradingForDatasets({ ...options, datasets: lineage.datasets })
  for (const dataset of lineage.datasets) {
    const grading = gradingOf(dataset)
    const loaded = loadTaskFiles({
      registry: options.registry,
      corpus: options.corpus,
      ...(options.taskConfig ? { taskConfig: options.taskConfig } : {}),
      grading,
    })
    tasks[dataset] = loaded.task
    issues.push(...taskMismatches({ dataset, gradingSha256: grading.sha256, hashes: loaded.hashes, lineage }))
  }
  if (issues.length > 0) {
    const unique = [...new Map(issues.map((issue) => [`${issue.path}`, issue])).values()]
    throw new InvalidInputError({
      code: 'release_task_mismatch',
      path: options.directory,
      message: `The task files do not match the release: ${unique.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}.`,
      issues: unique,
    })
  }
  return tasks
}

/** The split's rows, refused when the file no longer hashes to what the release report recorded. */
async function readSplit(options: RolloutSourceOptions, report: Record<string, unknown>, lineage: Lineage) {
  const parquet = join(options.directory, `${options.split}.parquet`)
  const file = await readRlParquet(parquet, { metadataFields: lineage.metadataFields, candidates: lineage.kind === 'rl' })
  const recorded =
    isObject(report.release) && isObject(report.release.artifacts_sha256)
      ? report.release.artifacts_sha256[`${options.split}.parquet`]
      : undefined
  if (recorded !== file.sha256) {
    throw new InvalidInputError({
      code: 'artifact_hash_mismatch',
      path: parquet,
      message: `${parquet} has sha256 ${file.sha256}, the release report records ${String(recorded)}.`,
      issues: [],
    })
  }
  return file
}

/** The stage-1 rows in file order as gate episodes (`limit` takes the first ones), candidates dropped. */
export function stage1GateRows(rows: RlRow[], limit?: number): { rows: GateRow[]; stage1: number } {
  const stage1 = rows.filter((row) => row.extra_info?.stage === 'stage1')
  const selected = limit === undefined ? stage1 : stage1.slice(0, limit)
  const gateRows: GateRow[] = selected.map((row) => {
    const { candidates: _candidates, ...extra } = row.extra_info
    const clean = { ...row, extra_info: extra }
    return {
      key: row.extra_info.source_id,
      dataset: row.extra_info.dataset,
      reset: { options: { row: clean } },
      prompt: row.prompt,
      label: `${row.reward_model.ground_truth}|${row.extra_info.ground_truth_level}`,
    }
  })
  return { rows: gateRows, stage1: stage1.length }
}

export async function releaseRolloutSource(options: RolloutSourceOptions): Promise<ReleaseRolloutSource> {
  const reportPath = join(options.directory, 'export_report.json')
  const reportFile = readJsonFile(reportPath, { kind: 'release export report', strict: true })
  const report = reportFile.value as Record<string, unknown>
  const lineage = lineageOf(report, reportPath)
  const tasks = loadReleaseTasks(options, lineage)
  const file = await readSplit(options, report, lineage)
  const { rows, stage1 } = stage1GateRows(file.rows as unknown as RlRow[], options.limit)
  return {
    rows,
    createEnv: () => withStepLimit(new GradingRolloutEnv({ tasks }), gradingV1Spec.maxEpisodeSteps),
    createBareEnv: () => new GradingRolloutEnv({ tasks, finalReplyOnly: false }),
    release: {
      directory: options.directory,
      kind: lineage.kind,
      format: report.format,
      ...(lineage.kind === 'rl-cascade' ? { family: 'rl-cascade' } : {}),
      datasets: lineage.datasets,
      split: options.split,
      export_report_sha256: sha256Hex(reportFile.bytes),
      split_parquet_sha256: file.sha256,
      split_stage1_rows: stage1,
      task: {
        registry_sha256: lineage.task.registry,
        corpus_sha256: lineage.task.corpus,
        task_config_sha256: lineage.task.taskConfig,
      },
      grading_sha256: lineage.grading,
    },
  }
}
