/** @module eval: one evaluated episode, as streamed to `--episodes-out` and aggregated into summaries. */

import type { EpisodeEnd, StepRecord } from '../agent/run-policy-episode.js'
import type { DatasetRow, EpisodeOutcome } from '../core/env/env-dataset.js'
import type { JsonObject, JsonValue } from '../core/json/json-value.js'

export interface EpisodeRecord {
  /** Position in the run (policy-major, then row order). */
  index: number
  rowIndex: number
  policy: string
  /** The dataset row without its prompt. */
  row: JsonObject
  reward: number
  terminal_reason: JsonValue
  terminated: boolean
  truncated: boolean
  end: EpisodeEnd
  step_count: number
  metrics: JsonValue
  outcome: EpisodeOutcome
  steps?: StepRecord[]
}

const strippedRows = new WeakMap<DatasetRow, JsonObject>()

/** The row minus its prompt, shared between the records of a repeated row (records must not mutate it). */
export function rowWithoutPrompt(row: DatasetRow): JsonObject {
  let stripped = strippedRows.get(row)
  if (!stripped) {
    const { prompt: _prompt, ...rest } = row
    stripped = rest
    strippedRows.set(row, stripped)
  }
  return stripped
}

/** The JSONL line of `--episodes-out`: row fields first, then the result. */
export function episodeLine(record: EpisodeRecord): JsonObject {
  return {
    ...record.row,
    policy: record.policy,
    reward: record.reward,
    terminal_reason: record.terminal_reason,
    terminated: record.terminated,
    truncated: record.truncated,
    end: record.end,
    step_count: record.step_count,
    metrics: record.metrics,
    outcome: record.outcome as unknown as JsonObject,
    steps: (record.steps ?? []) as unknown as JsonValue,
  }
}
