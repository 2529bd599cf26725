/**
 * @module train: did training move the model, honestly? Two probes of the same rows and sampling seed
 * (before and after, `python/releaseops_train/probe.py`) are paired sample by sample; the gain of each
 * metric (the env's reward, the accepted-first-call rate) gets a paired bootstrap 95% interval over
 * rows (a row's samples resample together, they are not independent evidence). A gain counts when its
 * interval's lower bound is above 0 and it is not carried by one tool alone: per tool (the episode's
 * first call), its share of the gain is the change in what that tool's samples earned over the
 * episode's no-call score (reward) or in its accepted calls; when the other tools' shares add up to
 * nothing, one call (say a planted `hold_release`) did all of it.
 */
import { z } from 'zod'
import { bootstrapDraws, pairedBootstrap } from '../eval/paired-bootstrap.js'

export const probeSampleSchema = z.object({
  row: z.int().min(0),
  tool: z.string().nullable(),
  accepted: z.boolean(),
  reward: z.number(),
  start_reward: z.number(),
})
export type ProbeSample = z.infer<typeof probeSampleSchema>

/** One model's part of the probe's report file (`python -m releaseops_train.probe --out`). */
const probeStatsSchema = z.looseObject({
  samples: z.number(),
  completions_with_call: z.number(),
  accepted_calls: z.number(),
  rejected_calls: z.number(),
  accepted_call_rate: z.number(),
  mean_reward: z.number(),
  accepted_by_tool: z.record(z.string(), z.number()),
  per_sample: z.array(probeSampleSchema),
})
export type ProbeStats = z.infer<typeof probeStatsSchema>
export const probeReportSchema = z.looseObject({ models: z.object({ before: probeStatsSchema, after: probeStatsSchema }) })

export const learningMetrics = ['reward', 'accepted_call_rate'] as const
export type LearningMetric = (typeof learningMetrics)[number]

export interface MetricGain {
  metric: LearningMetric
  before: number
  after: number
  gain: number
  ci95: { low: number; high: number } | null
  /** Per first tool: its part of the gain (per sample); `none` is a sample without a call. */
  by_tool: Record<string, number>
  /** The gain left when the tool with the largest part is taken out (> 0: more than one tool moved). */
  gain_without_top_tool: number
  top_tool: string | null
  /** Lower bound above 0 and not one tool's alone. */
  passed: boolean
}

export interface LearningVerdict {
  rows: number
  pairs: number
  resamples: number
  seed: number
  metrics: Record<LearningMetric, MetricGain>
}

const round = (value: number) => Math.round(value * 1e6) / 1e6

/** Sample k of row r before is paired with sample k of row r after; rows missing on one side are dropped. */
function pairByRow(before: readonly ProbeSample[], after: readonly ProbeSample[]): [ProbeSample, ProbeSample][][] {
  const group = (samples: readonly ProbeSample[]) => {
    const rows = new Map<number, ProbeSample[]>()
    for (const sample of samples) rows.set(sample.row, [...(rows.get(sample.row) ?? []), sample])
    return rows
  }
  const left = group(before)
  const right = group(after)
  return [...left.keys()]
    .sort((a, b) => a - b)
    .filter((row) => right.has(row))
    .map((row) => {
      const a = left.get(row) as ProbeSample[]
      const b = right.get(row) as ProbeSample[]
      return a.slice(0, b.length).map((sample, index): [ProbeSample, ProbeSample] => [sample, b[index] as ProbeSample])
    })
}

const value = (metric: LearningMetric, sample: ProbeSample) => (metric === 'reward' ? sample.reward : sample.accepted ? 1 : 0)
/** What a sample's first tool earned: reward over the no-call score, or its accepted call. */
const share = (metric: LearningMetric, sample: ProbeSample) =>
  metric === 'reward' ? sample.reward - sample.start_reward : sample.accepted ? 1 : 0

export function learningVerdict(
  before: readonly ProbeSample[],
  after: readonly ProbeSample[],
  options: { resamples?: number; seed?: number } = {},
): LearningVerdict {
  const resamples = options.resamples ?? 2000
  const seed = options.seed ?? 0
  const clusters = pairByRow(before, after)
  const pairs = clusters.flat()
  const draws = bootstrapDraws({ clusterCount: clusters.length, resamples, seed })
  const gainOf = (metric: LearningMetric): MetricGain => {
    const mean = (side: 0 | 1) => pairs.reduce((total, pair) => total + value(metric, pair[side]), 0) / Math.max(1, pairs.length)
    const interval = pairedBootstrap(
      clusters.map((cluster) => cluster.map(([a, b]) => value(metric, b) - value(metric, a))),
      draws,
    )
    const byTool: Record<string, number> = {}
    for (const [a, b] of pairs) {
      byTool[a.tool ?? 'none'] = (byTool[a.tool ?? 'none'] ?? 0) - share(metric, a) / pairs.length
      byTool[b.tool ?? 'none'] = (byTool[b.tool ?? 'none'] ?? 0) + share(metric, b) / pairs.length
    }
    const gain = mean(1) - mean(0)
    const top = Object.entries(byTool).reduce<[string, number] | null>(
      (best, entry) => (!best || entry[1] > best[1] ? entry : best),
      null,
    )
    const without = gain - Math.max(0, top?.[1] ?? 0)
    return {
      metric,
      before: round(mean(0)),
      after: round(mean(1)),
      gain: round(gain),
      ci95: interval && { low: round(interval.low), high: round(interval.high) },
      by_tool: Object.fromEntries(Object.entries(byTool).map(([tool, part]) => [tool, round(part)])),
      gain_without_top_tool: round(without),
      top_tool: top?.[0] ?? null,
      passed: interval !== null && interval.low > 0 && round(without) > 0,
    }
  }
  return {
    rows: clusters.length,
    pairs: pairs.length,
    resamples,
    seed,
    metrics: { reward: gainOf('reward'), accepted_call_rate: gainOf('accepted_call_rate') },
  }
}

/** One line per metric: before → after, the interval, the top tool's part. */
export function describeGain(gain: MetricGain): string {
  const interval = gain.ci95 ? `[${gain.ci95.low}, ${gain.ci95.high}]` : 'n/a'
  return `${gain.metric} ${gain.before} → ${gain.after} (gain ${gain.gain}, 95% ${interval}; without ${gain.top_tool ?? '-'}: ${gain.gain_without_top_tool})`
}
