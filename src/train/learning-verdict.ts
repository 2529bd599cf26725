/**
 * @module train: did training move the model, honestly? Two probes of the same rows and sampling seed
 * (before and after, `python/releaseops_train/probe.py`) are paired sample by sample; the gain of each
 * metric (the env's reward, the accepted-first-call rate) gets a paired bootstrap 95% interval over
 * rows (a row's samples resample together, they are not independent evidence). A gain counts when its
 * interval's lower bound is above 0 and it is not carried by one tool alone: per tool (the episode's
 * first call), its share of the gain is the change in what that tool's samples earned over the
 * episode's no-call score (reward) or in its accepted calls; when the other tools' shares add up to
 * nothing, one call (say a planted `hold_release`) did all of it.
 *
 * Nor does a gain count when the model calls less: on v3 a completion with no call (or none that parses)
 * keeps the reset's −0.6, above a call the env rejects (−0.85), so a model that stops calling raises
 * the reward without learning anything about the tools. The share of samples without a call gets its
 * own paired interval; when its lower bound is above 0, `calling_less` is set and no metric passes.
 */
import { z } from 'zod'
import { bootstrapDraws, pairedBootstrap } from '../eval/paired-bootstrap.js'

const probeSampleSchema = z.object({
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
  /** Lower bound above 0, not one tool's alone, and not made by calling less. */
  passed: boolean
}

export interface LearningVerdict {
  rows: number
  pairs: number
  resamples: number
  seed: number
  metrics: Record<LearningMetric, MetricGain>
  /** The share of samples without a first call, before and after, and the paired interval of its change. */
  no_call: { before: number; after: number; gain: number; ci95: { low: number; high: number } | null }
  /** The no-call share rose beyond noise (interval above 0): the model learned to call less. */
  calling_less: boolean
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
const noCall = (sample: ProbeSample) => (sample.tool === null ? 1 : 0)
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
  const meanOf = (of: (sample: ProbeSample) => number, side: 0 | 1) =>
    pairs.reduce((total, pair) => total + of(pair[side]), 0) / Math.max(1, pairs.length)
  const intervalOf = (of: (sample: ProbeSample) => number) =>
    pairedBootstrap(
      clusters.map((cluster) => cluster.map(([a, b]) => of(b) - of(a))),
      draws,
    )
  const silence = intervalOf(noCall)
  const callingLess = silence !== null && silence.low > 0
  const gainOf = (metric: LearningMetric): MetricGain => {
    const mean = (side: 0 | 1) => meanOf((sample) => value(metric, sample), side)
    const interval = intervalOf((sample) => value(metric, sample))
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
      passed: interval !== null && interval.low > 0 && round(without) > 0 && !callingLess,
    }
  }
  return {
    rows: clusters.length,
    pairs: pairs.length,
    resamples,
    seed,
    metrics: { reward: gainOf('reward'), accepted_call_rate: gainOf('accepted_call_rate') },
    no_call: {
      before: round(meanOf(noCall, 0)),
      after: round(meanOf(noCall, 1)),
      gain: round(meanOf(noCall, 1) - meanOf(noCall, 0)),
      ci95: silence && { low: round(silence.low), high: round(silence.high) },
    },
    calling_less: callingLess,
  }
}

/** One line per metric: before → after, the interval, the top tool's part. */
export function describeGain(gain: MetricGain): string {
  const interval = gain.ci95 ? `[${gain.ci95.low}, ${gain.ci95.high}]` : 'n/a'
  return `${gain.metric} ${gain.before} → ${gain.after} (gain ${gain.gain}, 95% ${interval}; without ${gain.top_tool ?? '-'}: ${gain.gain_without_top_tool})`
}

/** The no-call share's line: before → after, its interval, and whether the model learned to call less. */
export function describeNoCall(verdict: LearningVerdict): string {
  const { no_call: share } = verdict
  const interval = share.ci95 ? `[${share.ci95.low}, ${share.ci95.high}]` : 'n/a'
  return `no-call share ${share.before} → ${share.after} (95% ${interval}${verdict.calling_less ? ': calling less, not learning' : ''})`
}
