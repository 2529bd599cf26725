/**
 * @module eval: one LLM-evaluated episode as a line of the episodes file. The file is the run's log and
 * its resume point: a line with `status: "scored"` is finished and never repeated; `infra_error` and
 * `tool_error` lines are unscored (the endpoint or the env failed, not the model) and run again on resume.
 */
import { createHash } from 'node:crypto'
import { z } from 'zod'
import type { AgentEpisodeResult } from '../agent/agent-trajectory.js'
import type { DatasetRow, EpisodeOutcome } from '../core/env/env-dataset.js'
import type { JsonObject, JsonValue } from '../core/json/json-value.js'
import type { EpisodeRecord } from './episode-record.js'

export type LlmEpisodeStatus = 'scored' | 'infra_error' | 'tool_error'

export interface LlmEpisodeLine {
  row_index: number
  sample: number
  /** sha256 (16 hex) of the row's JSONL line: pairs episodes across runs and checks a resume. */
  row_key: string
  row: JsonObject
  policy: string
  status: LlmEpisodeStatus
  reward: number
  terminal_reason: JsonValue
  terminated: boolean
  truncated: boolean
  end: string
  step_count: number
  metrics: JsonValue
  outcome: EpisodeOutcome
  llm: {
    turns: number
    repaired_actions: number
    parse_issues: Record<string, number>
    invalid_actions: number
    length_stops: number
    retries: number
    usage: AgentEpisodeResult['usage']
    latency_ms: number[]
    timing: AgentEpisodeResult['timing']
  }
  fault?: AgentEpisodeResult['fault']
  /** Hash of the settings that decide the outcome (env, dataset, model, mode, sampling, samples, turns). */
  run: string
  steps: AgentEpisodeResult['steps']
  turns: AgentEpisodeResult['turns']
  trajectory?: AgentEpisodeResult['trajectory']
}

/** What a resume and `eval compare` need from a line; everything else passes through. */
export const llmEpisodeLineSchema = z.looseObject({
  row_index: z.number().int().nonnegative(),
  sample: z.number().int().nonnegative(),
  row_key: z.string(),
  row: z.record(z.string(), z.unknown()),
  policy: z.string(),
  status: z.enum(['scored', 'infra_error', 'tool_error']),
  reward: z.number(),
  outcome: z.object({ rates: z.record(z.string(), z.boolean()), values: z.record(z.string(), z.number()) }),
  run: z.string(),
})

export function rowKey(serializedRow: string): string {
  return createHash('sha256').update(serializedRow).digest('hex').slice(0, 16)
}

function statusOf(result: AgentEpisodeResult): LlmEpisodeStatus {
  if (result.fault?.fault === 'infrastructure') return 'infra_error'
  if (result.fault?.fault === 'tool') return 'tool_error'
  return 'scored'
}

/** The env's outcome plus the per-episode LLM values every summary block averages. */
function llmOutcome(outcome: EpisodeOutcome, result: AgentEpisodeResult): EpisodeOutcome {
  const parseIssues = Object.values(result.counts.parse_issues).reduce((total, count) => total + count, 0)
  return {
    rates: outcome.rates,
    values: {
      ...outcome.values,
      repaired_actions: result.counts.repaired_actions,
      parse_issues: parseIssues,
      turns: result.counts.turns,
      prompt_tokens: result.usage.prompt_tokens,
      completion_tokens: result.usage.completion_tokens,
    },
  }
}

/** A line as the record `buildSummary` aggregates (index = position in task order). */
export function toEpisodeRecord(line: LlmEpisodeLine, index: number): EpisodeRecord {
  return {
    index,
    rowIndex: line.row_index,
    policy: line.policy,
    row: line.row,
    reward: line.reward,
    terminal_reason: line.terminal_reason ?? null,
    terminated: line.terminated,
    truncated: line.truncated,
    end: line.end as EpisodeRecord['end'],
    step_count: line.step_count,
    metrics: line.metrics ?? null,
    outcome: line.outcome,
  }
}

function rowWithoutPromptField(row: DatasetRow): JsonObject {
  const { prompt: _prompt, ...rest } = row
  return rest
}

export interface LlmEpisodeLineInput {
  task: { rowIndex: number; sample: number }
  rowKey: string
  row: DatasetRow
  policy: string
  result: AgentEpisodeResult
  /** The env's summary of the episode (before `llmOutcome` judges the endpoint's part in it). */
  outcome: EpisodeOutcome
  /** The run's settings hash (`runFingerprint`). */
  fingerprint: string
  /** Keep the messages in the line. */
  recordTrajectory: boolean
}

/** One finished episode as its episodes-file line, in the line's key order. */
export function llmEpisodeLine(input: LlmEpisodeLineInput): LlmEpisodeLine {
  const { result } = input
  return {
    row_index: input.task.rowIndex,
    sample: input.task.sample,
    row_key: input.rowKey,
    row: rowWithoutPromptField(input.row),
    policy: input.policy,
    status: statusOf(result),
    reward: result.reward,
    terminal_reason: result.info.terminal_reason ?? null,
    terminated: result.terminated,
    truncated: result.truncated,
    end: result.end,
    step_count: result.steps.length,
    metrics: result.info.metrics ?? null,
    outcome: llmOutcome(input.outcome, result),
    llm: {
      turns: result.counts.turns,
      repaired_actions: result.counts.repaired_actions,
      parse_issues: result.counts.parse_issues,
      invalid_actions: result.counts.invalid_actions,
      length_stops: result.counts.length_stops,
      retries: result.counts.retries,
      usage: result.usage,
      latency_ms: result.turns.map((turn) => turn.latency_ms),
      timing: result.timing,
    },
    ...(result.fault ? { fault: result.fault } : {}),
    run: input.fingerprint,
    steps: result.steps,
    turns: result.turns,
    ...(input.recordTrajectory ? { trajectory: result.trajectory } : {}),
  }
}
