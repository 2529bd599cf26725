/**
 * @module train: the runs under `<outputs>/runs/`, side by side: what each ran (preset, env, model,
 * state), its reward curve and summary from its metrics file, and its learning verdict when it was
 * probed (`learning.json`, written by the smoke preset's probe and by `releaseops train smoke`). What a
 * run folder lacks is null, never guessed; a file that does not parse is reported, not skipped.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { readMetricsFile, stepRows, summarizeLogHistory, type TrainingSummary } from './log-history.js'

const statusFileSchema = z.looseObject({
  state: z.string(),
  preset: z.string().nullable().optional(),
  env_id: z.string().nullable().optional(),
  model: z.string().nullable().optional(),
  started_at: z.string().nullable().optional(),
  ended_at: z.string().nullable().optional(),
  elapsed_seconds: z.number().nullable().optional(),
  error: z.looseObject({ code: z.string(), message: z.string(), cause: z.string().optional() }).nullable().optional(),
})

const gainSchema = z.looseObject({
  before: z.number(),
  after: z.number(),
  gain: z.number(),
  ci95: z.object({ low: z.number(), high: z.number() }).nullable(),
  passed: z.boolean(),
})

/** The part of `learning.json` the runs view shows. */
const learningFileSchema = z.looseObject({
  metric: z.string().nullable(),
  held_out_split: z.string(),
  verdict: z.looseObject({
    metrics: z.looseObject({ reward: gainSchema, accepted_call_rate: gainSchema }),
    calling_less: z.boolean(),
  }),
})

export interface LearningSummary {
  /** The probe's verdict: a gain whose interval is above 0, not one tool's, not by calling less. */
  passed: boolean
  metric: string | null
  held_out_split: string
  reward: z.infer<typeof gainSchema>
  accepted_call_rate: z.infer<typeof gainSchema>
  calling_less: boolean
}

export interface RunListing {
  run_id: string
  preset: string | null
  env_id: string | null
  model: string | null
  state: string | null
  started_at: string | null
  elapsed_seconds: number | null
  error: { code: string; message: string; cause?: string | undefined } | null
  global_step: number | null
  max_steps: number | null
  summary: TrainingSummary | null
  /** [step, reward] of every logged step (the curve the view compares). */
  reward_curve: [number, number][]
  learning: LearningSummary | null
  /** Files of the run folder that exist but do not parse. */
  unreadable: string[]
}

async function readJson<T>(path: string, schema: z.ZodType<T>): Promise<T | null | 'unreadable'> {
  const text = await readFile(path, 'utf8').catch(() => null)
  if (text === null) return null
  try {
    const parsed = schema.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : 'unreadable'
  } catch {
    return 'unreadable'
  }
}

async function readRun(outputsRoot: string, runId: string): Promise<RunListing> {
  const folder = join(outputsRoot, 'runs', runId)
  const [status, learning, metrics] = await Promise.all([
    readJson(join(folder, 'status.json'), statusFileSchema),
    readJson(join(folder, 'learning.json'), learningFileSchema),
    readMetricsFile(join(folder, 'metrics.json')),
  ])
  const unreadable = [
    ...(status === 'unreadable' ? ['status.json'] : []),
    ...(learning === 'unreadable' ? ['learning.json'] : []),
  ]
  const state = status === 'unreadable' ? null : status
  const probed = learning === 'unreadable' ? null : learning
  const curve = metrics
    ? stepRows(metrics.rows).flatMap((row): [number, number][] =>
        typeof row.step === 'number' && typeof row.reward === 'number' ? [[row.step, row.reward]] : [],
      )
    : []
  return {
    run_id: runId,
    preset: state?.preset ?? null,
    env_id: state?.env_id ?? null,
    model: state?.model ?? null,
    state: state?.state ?? null,
    started_at: state?.started_at ?? null,
    elapsed_seconds: state?.elapsed_seconds ?? null,
    error: state?.error ?? null,
    global_step: metrics?.globalStep ?? null,
    max_steps: metrics?.maxSteps ?? null,
    summary: metrics ? summarizeLogHistory(metrics) : null,
    reward_curve: curve,
    learning: probed
      ? {
          passed: probed.metric !== null,
          metric: probed.metric,
          held_out_split: probed.held_out_split,
          reward: probed.verdict.metrics.reward,
          accepted_call_rate: probed.verdict.metrics.accepted_call_rate,
          calling_less: probed.verdict.calling_less,
        }
      : null,
    unreadable,
  }
}

/** The newest `limit` runs (run ids start with their UTC start time), newest first. */
export async function listRuns(outputsRoot: string, limit: number): Promise<RunListing[]> {
  const entries = await readdir(join(outputsRoot, 'runs'), { withFileTypes: true }).catch(() => [])
  const ids = entries
    .filter((entry) => entry.isDirectory() && /^[0-9]{8}-[0-9]{6}-/.test(entry.name))
    .map((entry) => entry.name)
    .sort()
    .reverse()
    .slice(0, limit)
  return Promise.all(ids.map((id) => readRun(outputsRoot, id)))
}
