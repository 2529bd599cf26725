/**
 * @module release/trajectories: assembles `export_report.json` from what the export did (see
 * `export-report.ts` for the fields `validate` relies on).
 */
import { createHash } from 'node:crypto'
import type { ChatTool } from '../../chat/chat-message.js'
import { splitNames } from '../contracts/canonical-record.js'
import { exportInputs, publishedRelease, taskIdentity } from '../contracts/export-report-parts.js'
import type { LoadedTask } from '../inputs/load-task-files.js'
import type { ExportReportCore } from './export-report.js'
import type { TrajectoryPlan } from './plan-trajectories.js'
import type { ThoughtProvider } from './think/thought-provider.js'
import { type TrajectoryClass, trajectoryClasses } from './trajectory-class.js'
import { type ThinkOverLimitPolicy, trajectoryFormat, trajectoryReleaseFormat, trajectoryStage } from './trajectory-format.js'
import type { WrittenSplits } from './write-trajectory-splits.js'

export type TrajectoryExportReport = ExportReportCore & {
  validation?: { valid: boolean; rows: number; checks: string[] }
  [key: string]: unknown
}

export function buildExportReport(options: {
  dataset: string
  loaded: LoadedTask
  plan: TrajectoryPlan
  written: WrittenSplits
  provider: ThoughtProvider
  maxThinkTokens: number
  overLimit: ThinkOverLimitPolicy
  tools: readonly ChatTool[]
  canonicalSha256: string
}): TrajectoryExportReport {
  const { task } = options.loaded
  const splits = options.written.splits
  const classes = Object.fromEntries(
    trajectoryClasses.map((name) => [name, splitNames.reduce((sum, split) => sum + splits[split].by_class[name], 0)]),
  ) as Record<TrajectoryClass, number>
  return {
    format: trajectoryReleaseFormat,
    trajectory_format: trajectoryFormat,
    stage: trajectoryStage,
    dataset: options.dataset,
    enable_thinking: options.provider.kind !== 'none',
    think: {
      source: options.provider.kind,
      mock: options.provider.kind === 'mock',
      max_think_tokens: options.maxThinkTokens,
      over_limit: options.overLimit,
      token_measure: 'approximate: one per CJK character, one per four other characters (rounded up)',
      ...options.written.thoughts,
      ...options.provider.describe(),
    },
    chat_template: 'qwen3.5 (rows carry structured tool_calls, tools and enable_thinking for the model template)',
    tools: options.tools.map((tool) => tool.function.name),
    tools_sha256: createHash('sha256').update(JSON.stringify(options.tools)).digest('hex'),
    ...taskIdentity(task),
    grading: { levels: [...task.grading.levels], gt_field: task.grading.gt_field },
    inputs: exportInputs({ canonicalSha256: options.canonicalSha256, loaded: options.loaded }),
    canonical_resolved: options.plan.canonicalResolved,
    skipped_no_grading_label: options.plan.skippedNoLevel,
    label_gap_gate: options.plan.gate,
    classes,
    splits,
    release: publishedRelease(splits),
  }
}
