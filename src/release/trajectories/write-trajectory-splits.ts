/**
 * @module release/trajectories: builds every planned trajectory through the env, gives it its thoughts
 * and writes the rows into `<staging>/<split>.parquet`. Thought problems are collected over the whole
 * release (so one run lists every missing or bad thought), and any of them fails the export: the partial
 * files are removed and the issues thrown.
 */

import { join } from 'node:path'
import type { ChatTool } from '../../chat/chat-message.js'
import { carriedCode } from '../../core/errors/error-code.js'
import { type InputIssue, InvalidInputError } from '../../core/errors/invalid-input-error.js'
import type { GradingTask } from '../../envs/grading/grading-task.js'
import { type SplitName, splitNames } from '../contracts/canonical-record.js'
import { NestedParquetWriter } from '../parquet/nested-parquet-writer.js'
import { TrajectoryBuilder } from './build-trajectory.js'
import type { SplitSummary } from './export-report.js'
import type { TrajectoryPlan } from './plan-trajectories.js'
import { sourceIdsDigest } from './report-consistency.js'
import { prepareRowThoughts, type ThoughtProvider, type ThoughtStats } from './think/thought-provider.js'
import type { TrajectoryClass } from './trajectory-class.js'
import { trajectoryColumns } from './trajectory-columns.js'
import type { ThinkOverLimitPolicy } from './trajectory-format.js'
import { trajectoryRow } from './trajectory-row.js'

export interface WrittenSplits {
  splits: Record<SplitName, SplitSummary>
  thoughts: ThoughtStats
}

export function writeTrajectorySplits(options: {
  staging: string
  plan: TrajectoryPlan
  task: GradingTask
  dataset: string
  tools: readonly ChatTool[]
  provider: ThoughtProvider
  maxThinkTokens: number
  overLimit: ThinkOverLimitPolicy
  onProgress?: (split: SplitName, done: number, total: number) => void
}): WrittenSplits {
  const { plan, task, provider } = options
  const builder = new TrajectoryBuilder(task)
  const columns = trajectoryColumns({ tools: options.tools, metadataFields: task.taskConfig.metadata_fields })
  const stats: ThoughtStats = { thoughts: 0, truncated: 0, discarded: 0, empty: 0, max_tokens_seen: 0 }
  const thoughtIssues: InputIssue[] = []
  const writers: NestedParquetWriter[] = []
  const splits = {} as Record<SplitName, SplitSummary>
  try {
    for (const split of splitNames) {
      const writer = new NestedParquetWriter(join(options.staging, `${split}.parquet`), columns)
      writers.push(writer)
      const classes: Record<TrajectoryClass, number> = { direct: 0, single_tool: 0, multi_tool: 0, no_result: 0 }
      const ids: string[] = []
      let calls = 0
      const sources = plan.splits[split]
      sources.forEach((source, index) => {
        const trajectory = builder.build(source)
        const raw = provider.thoughts(trajectory, split)
        const thoughts = raw
          ? prepareRowThoughts({
              raw,
              trajectory,
              task,
              kind: provider.kind,
              maxTokens: options.maxThinkTokens,
              policy: options.overLimit,
              stats,
              issues: thoughtIssues,
            })
          : undefined
        if (thoughts && provider.issues.length === 0 && thoughtIssues.length === 0) {
          writer.add(
            trajectoryRow({ trajectory, thoughts, thinkSource: provider.kind, dataset: options.dataset, tools: options.tools }),
          )
        }
        classes[trajectory.trajectoryClass]++
        calls += trajectory.calls.length
        ids.push(trajectory.sourceId)
        if ((index + 1) % 1024 === 0 || index + 1 === sources.length) options.onProgress?.(split, index + 1, sources.length)
      })
      const rows = writer.rowCount
      const sha256 = writer.finish()
      splits[split] = {
        rows,
        by_class: classes,
        tool_calls: calls,
        source_ids_sha256: sourceIdsDigest(ids),
        parquet_sha256: sha256,
      }
    }
    provider.finish()
    const issues = [...provider.issues, ...thoughtIssues]
    if (issues.length > 0) {
      const first = issues[0] as InputIssue
      throw new InvalidInputError({
        code: carriedCode(first.code),
        path: first.path,
        message: `${issues.length} thought problem(s); first: ${first.path}: ${first.message}.`,
        issues: issues.slice(0, 500),
      })
    }
  } catch (error) {
    for (const writer of writers) writer.abandon()
    throw error
  }
  return { splits, thoughts: stats }
}
