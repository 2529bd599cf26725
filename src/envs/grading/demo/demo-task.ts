/**
 * @module envs/grading: the built-in demo task behind `grading-v1`: the synthetic taxonomy as a task, and
 * a small set of clean labeled records (as RL-release rows, split 8/1/1 by record id) for resets and evals.
 */
import { createHash } from 'node:crypto'
import type { DatasetRow, EnvDataset } from '../../../core/env/env-dataset.js'
import { UnknownNameError } from '../../../core/errors/unknown-name-error.js'
import { pythonDumpsUnicode } from '../../../core/python/python-json.js'
import { collapseWhitespace, pythonStrip } from '../../../core/python/python-text.js'
import { parseCategoryCorpus } from '../assets/category-corpus.js'
import { parseGradingConfig } from '../assets/grading-config.js'
import { parseLeafRegistry } from '../assets/leaf-registry.js'
import { parseTaskConfig } from '../assets/task-config.js'
import type { GradingEpisodeSource } from '../grading-episode-source.js'
import { createGradingTask, type GradingTask } from '../grading-task.js'
import { buildNativeUserPrompt, nativeToolTrajectoryFormat } from '../native-prompt.js'
import { stableRecordId } from '../stable-record-id.js'
import { demoCorpusJson, demoGradingJson, demoRegistryJson, demoTaskConfigJson } from './demo-assets.js'
import { demoDatasetName } from './demo-taxonomy.js'
import { generateDemoSheet } from './generate-demo-rows.js'

const demoEpisodeRows = 400
const demoEpisodeSeed = 20261129
const demoSplits = ['train', 'val', 'test'] as const

let cachedTask: GradingTask | undefined
let cachedRows: DatasetRow[] | undefined

export function demoGradingTask(): GradingTask {
  cachedTask ??= createGradingTask({
    registry: parseLeafRegistry(demoRegistryJson(), 'demo registry'),
    corpus: parseCategoryCorpus(demoCorpusJson(), 'demo corpus'),
    grading: parseGradingConfig(demoGradingJson(), 'demo grading'),
    taskConfig: parseTaskConfig(demoTaskConfigJson(), 'demo task config'),
  })
  return cachedTask
}

const text = (value: unknown) => collapseWhitespace(pythonStrip(String(value ?? '')))

function splitOf(sourceId: string): (typeof demoSplits)[number] {
  const bucket = (createHash('sha256').update(sourceId).digest()[0] as number) % 10
  return bucket < 8 ? 'train' : bucket === 8 ? 'val' : 'test'
}

/** Every clean labeled demo record as an RL-release row (`extra_info.split` says its split). */
function demoRows(): DatasetRow[] {
  if (cachedRows) return cachedRows
  const task = demoGradingTask()
  const sheet = generateDemoSheet({ rows: demoEpisodeRows, seed: demoEpisodeSeed })
  const rows: DatasetRow[] = []
  const seen = new Set<string>()
  for (const row of sheet.rows) {
    if (row.kind !== 'labeled') continue
    const [database_name, , table_name, table_description, field_name, field_description] = row.cells.map(text)
    const sourceId = stableRecordId(demoDatasetName, { database_name, table_name, field_name })
    if (seen.has(sourceId)) continue
    seen.add(sourceId)
    const metadata = { field_name, table_name, field_description, table_description } as Record<string, string>
    rows.push({
      seed: rows.length,
      split: splitOf(sourceId),
      data_source: `${demoDatasetName}/stage1`,
      prompt: [
        { role: 'system', content: task.systemPrompt },
        { role: 'user', content: buildNativeUserPrompt(metadata) },
      ],
      ability: task.taskConfig.task_name,
      reward_model: { style: 'rule', ground_truth: row.categoryId as string },
      extra_info: {
        dataset: demoDatasetName,
        stage: 'stage1',
        source_id: sourceId,
        metadata,
        ground_truth_level: row.level as string,
        trajectory_format: nativeToolTrajectoryFormat,
      },
    })
  }
  cachedRows = rows
  return rows
}

/** The demo records a reset without options draws from (by seed). */
export function demoEpisodeSources(): GradingEpisodeSource[] {
  return demoRows().map((row) => {
    const extra = row.extra_info as { source_id: string; metadata: Record<string, string>; ground_truth_level: string }
    return {
      sourceId: extra.source_id,
      metadata: extra.metadata,
      groundTruth: (row.reward_model as { ground_truth: string }).ground_truth,
      groundTruthLevel: extra.ground_truth_level,
    }
  })
}

export const demoGradingDataset: EnvDataset = {
  splits: demoSplits,
  rows(split) {
    if (!(demoSplits as readonly string[]).includes(split))
      throw new UnknownNameError({ kind: 'split', name: split, known: demoSplits })
    return demoRows().filter((row) => row.split === split)
  },
  toResetParams: (row) => ({ seed: row.seed, options: { row } }),
  serializeRow: (row) => pythonDumpsUnicode(row),
  groupBy: ['split'],
}
