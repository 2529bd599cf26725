/**
 * @module train: the trainer's live metrics file (`metrics.json`: `{status, global_step, max_steps,
 * best, log_history}`, or a bare log-history list as the original wrote it), read tolerantly (a file
 * being replaced reads as "not yet"), and the summary `/train/summary` reports.
 */
import { readFile } from 'node:fs/promises'
import { z } from 'zod'

export const logRowSchema = z.record(z.string(), z.union([z.number(), z.string(), z.null(), z.boolean()]))

/** One row of the trainer's log history (TRL's `state.log_history`). */
export type LogRow = z.infer<typeof logRowSchema>

const metricsFileSchema = z.union([
  z.array(logRowSchema),
  z.looseObject({
    status: z.string().optional(),
    global_step: z.number().optional(),
    max_steps: z.number().optional(),
    elapsed_seconds: z.number().optional(),
    best: z.record(z.string(), z.unknown()).nullable().optional(),
    log_history: z.array(logRowSchema),
  }),
])

export interface MetricsSnapshot {
  status: string | null
  globalStep: number | null
  maxSteps: number | null
  best: Record<string, unknown> | null
  rows: LogRow[]
}

/** The metrics file, or null when it does not exist (yet) or is not a metrics file. */
export async function readMetricsFile(path: string): Promise<MetricsSnapshot | null> {
  const text = await readFile(path, 'utf8').catch(() => undefined)
  if (text === undefined) return null
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return null
  }
  const parsed = metricsFileSchema.safeParse(value)
  if (!parsed.success) return null
  const data = parsed.data
  const rows = (Array.isArray(data) ? data : data.log_history).map((row) =>
    Object.fromEntries(Object.entries(row).map(([key, entry]) => [key, typeof entry === 'boolean' ? Number(entry) : entry])),
  )
  if (Array.isArray(data)) return { status: null, globalStep: null, maxSteps: null, best: null, rows }
  return {
    status: data.status ?? null,
    globalStep: data.global_step ?? null,
    maxSteps: data.max_steps ?? null,
    best: data.best ?? null,
    rows,
  }
}

const numberOf = (row: LogRow | undefined, key: string): number | null => {
  const value = row?.[key]
  return typeof value === 'number' && Number.isFinite(value) ? value : null
}

/** Optimisation-step rows (the final `train_runtime` row excluded). */
export function stepRows(rows: readonly LogRow[]): LogRow[] {
  return rows.filter((row) => numberOf(row, 'loss') !== null && !('train_runtime' in row))
}

export interface TrainingSummary {
  reward_points: number
  first_step: number | null
  last_step: number | null
  reward_first: number | null
  reward_last: number | null
  reward_delta: number | null
  reward_max: number | null
  reward_max_step: number | null
  tool_call_frequency_first: number | null
  tool_call_frequency_last: number | null
  tool_failure_frequency_first: number | null
  tool_failure_frequency_last: number | null
  /** The share of tool calls the env server rejected (train_grpo.py's `env/rejected_call_rate`). */
  rejected_call_rate_first: number | null
  rejected_call_rate_last: number | null
  loss_last: number | null
  grad_norm_last: number | null
  train_runtime: number | null
  best: Record<string, unknown> | null
}

export function summarizeLogHistory(snapshot: MetricsSnapshot): TrainingSummary {
  const rewarded = snapshot.rows.filter((row) => numberOf(row, 'reward') !== null && !('train_runtime' in row))
  const steps = stepRows(snapshot.rows)
  const first = rewarded[0]
  const last = rewarded.at(-1)
  let maxRow: LogRow | undefined
  for (const row of rewarded)
    if (maxRow === undefined || (numberOf(row, 'reward') as number) > (numberOf(maxRow, 'reward') as number)) maxRow = row
  const rewardFirst = numberOf(first, 'reward')
  const rewardLast = numberOf(last, 'reward')
  const final = snapshot.rows.find((row) => 'train_runtime' in row)
  return {
    reward_points: rewarded.length,
    first_step: numberOf(first, 'step'),
    last_step: numberOf(last, 'step'),
    reward_first: rewardFirst,
    reward_last: rewardLast,
    reward_delta: rewardFirst === null || rewardLast === null ? null : rewardLast - rewardFirst,
    reward_max: numberOf(maxRow, 'reward'),
    reward_max_step: numberOf(maxRow, 'step'),
    tool_call_frequency_first: numberOf(first, 'tools/call_frequency'),
    tool_call_frequency_last: numberOf(last, 'tools/call_frequency'),
    tool_failure_frequency_first: numberOf(first, 'tools/failure_frequency'),
    tool_failure_frequency_last: numberOf(last, 'tools/failure_frequency'),
    rejected_call_rate_first: numberOf(first, 'env/rejected_call_rate'),
    rejected_call_rate_last: numberOf(last, 'env/rejected_call_rate'),
    loss_last: numberOf(steps.at(-1), 'loss'),
    grad_norm_last: numberOf(steps.at(-1), 'grad_norm'),
    train_runtime: numberOf(final, 'train_runtime'),
    best: snapshot.best,
  }
}
