/**
 * @module eval/gate: the rollout gate report (a zod schema: the VeRL preflight reads it back) and how it
 * is built from the episodes. Unscored episodes (the endpoint kept failing) make the status
 * `infrastructure_error` with no rate claimed: an outage is never a 0% model.
 */
import { z } from 'zod'
import type { GateEpisode } from './gate-episode.js'
import {
  answerCounts,
  infrastructureCounts,
  outcomesByPrompt,
  parseFailureCounts,
  tally,
  toolCallCounts,
  usageTotals,
} from './gate-episode-counts.js'
import {
  type GateProfile,
  type GateReason,
  type GateSignals,
  gateReasonCodes,
  gateSignals,
  learningSignalRule,
  signalReasons,
} from './gate-reasons.js'
import { type GateVerdict, isFormalBounds, judgeRolloutRate, type PromptSignal, promptSignal } from './rollout-gate-rule.js'

const gateReportFormat = 'releaseops-rollout-gate-v1'

const counts = z.record(z.string(), z.number())

export const gateReportSchema = z.looseObject({
  format: z.literal(gateReportFormat),
  gate: z.literal('rollout_nonzero_reward_rate'),
  status: z.enum(['passed', 'failed', 'infrastructure_error']),
  passed: z.boolean(),
  rule: z.looseObject({
    metric: z.string(),
    success: z.string(),
    lower: z.number(),
    upper: z.number(),
    bounds_inclusive: z.boolean(),
  }),
  numerator: z.number().int(),
  denominator: z.number().int(),
  rate: z.number().nullable(),
  nonzero_reward_rate: z.number().nullable(),
  ci95: z.tuple([z.number(), z.number()]).nullable(),
  /** Why the gate failed, each coded (empty when it passed or could not judge). */
  reasons: z.array(
    z.looseObject({
      code: z.enum(gateReasonCodes),
      message: z.string(),
      measured: z.number().nullable(),
      threshold: z.number().nullable(),
    }),
  ),
  signals: z.looseObject({
    profile: z.string().nullable(),
    tool_use: z.looseObject({ tools: z.array(z.string()), episodes: z.number(), share: z.number().nullable() }).nullable(),
    answers: z
      .looseObject({
        valid: z.number(),
        classes: z.number(),
        top_class: z.string().nullable(),
        top_share: z.number().nullable(),
        effective_classes: z.number().nullable(),
        label_effective_classes: z.number().nullable(),
        effective_ratio: z.number().nullable(),
      })
      .nullable(),
    ships: z
      .looseObject({ ships: z.number(), safe: z.number(), unsafe: z.number(), unsafe_share: z.number().nullable() })
      .nullable(),
  }),
  per_prompt: z.looseObject({
    samples_per_prompt: z.number(),
    prompts: z.number(),
    mixed_prompts: z.number(),
    mixed_share: z.number().nullable(),
  }),
  parse_failures: z.looseObject({
    episodes: z.number(),
    tool_call_turns: z.number(),
    final_answer_invalid: z.number(),
    by_code: counts,
  }),
  answers: z.looseObject({ valid: z.number(), invalid: z.number(), missing: z.number() }),
  ends: counts,
  tool_calls: z.looseObject({ total: z.number(), per_episode: z.number(), invalid: z.number() }),
  infrastructure: z.looseObject({ unscored_episodes: z.number(), faults: counts }),
  model: z.looseObject({ name: z.string(), endpoint: z.string(), mode: z.string(), served: z.unknown(), sampling: z.unknown() }),
  release: z.looseObject({}),
  env: z.looseObject({ id: z.string(), tools: z.array(z.string()), tool_schemas: z.string(), tool_schemas_sha256: z.string() }),
  chat: z.looseObject({ trajectory_format: z.string(), mode: z.string(), parser: z.string() }),
  loop: z.looseObject({ max_assistant_turns: z.number(), max_user_turns: z.number(), max_parallel_calls: z.number() }),
  thinking: z.looseObject({ enable_thinking: z.boolean() }),
  limits: z.looseObject({ rows: z.number(), samples: z.number(), limit: z.number().nullable(), concurrency: z.number() }),
  started_at: z.string(),
  finished_at: z.string(),
  duration_seconds: z.number(),
})

export type GateReport = z.output<typeof gateReportSchema>

export interface GateContext {
  model: GateReport['model']
  release: Record<string, unknown>
  env: GateReport['env']
  chat: GateReport['chat']
  loop: GateReport['loop']
  thinking: GateReport['thinking']
  limits: GateReport['limits']
  bounds: { lower: number; upper: number }
  /** Non-formal exploration (custom bounds): the report says so and `verl preflight` refuses it. */
  exploration?: boolean
  /** The fewest scored episodes the gate may pass on (default: every episode it was given). */
  minDenominator?: number
  /** What the task needs besides the rate (`gateProfileFor(envId)`); null: rate and learning signal only. */
  profile?: GateProfile | null
  /** The split's label class per row (grading), the yardstick of answer diversity. */
  labels?: readonly string[]
  startedAt: Date
  finishedAt: Date
}

/** Why the gate fails, in order: the rate, too few scored episodes, then the task's signals. */
export function gateReasons(options: {
  verdict: GateVerdict
  bounds: GateContext['bounds']
  minDenominator: number
  samples: number
  perPrompt: PromptSignal
  signals: GateSignals
  profile: GateProfile | null
}): GateReason[] {
  const { verdict, bounds, minDenominator } = options
  const reasons: GateReason[] = []
  if (!verdict.passed)
    reasons.push({
      code: 'rate_out_of_bounds',
      message: `nonzero-reward rate ${verdict.numerator}/${verdict.denominator} is outside [${bounds.lower}, ${bounds.upper}]`,
      measured: verdict.rate,
      threshold: null,
    })
  if (verdict.denominator < minDenominator)
    reasons.push({
      code: 'denominator_below_minimum',
      message: `${verdict.denominator} scored episodes; the gate needs ${minDenominator}`,
      measured: verdict.denominator,
      threshold: minDenominator,
    })
  const { samples, perPrompt, signals, profile } = options
  reasons.push(...signalReasons({ samples, mixedShare: perPrompt.mixed_share, signals, profile }))
  return reasons
}

/** The rule the gate applied, as the report states it (a refusal when too few episodes were scored). */
function gateRule(context: GateContext, verdict: GateVerdict, minDenominator: number, profile: GateProfile | null) {
  const enough = verdict.denominator >= minDenominator
  return {
    metric: 'nonzero_reward_rate',
    success: 'episode reward > 0',
    lower: context.bounds.lower,
    upper: context.bounds.upper,
    bounds_inclusive: true,
    formal: context.exploration !== true && isFormalBounds(context.bounds),
    min_denominator: minDenominator,
    ...(enough ? {} : { refusal: `denominator ${verdict.denominator} < ${minDenominator}` }),
    learning_signal: { min_samples: learningSignalRule.minSamples, min_mixed_share: learningSignalRule.minMixedShare },
    profile: profile === null ? null : { ...profile },
  }
}

/** What the run was (model, release, env, chat, loop, limits) and when, as the context gave it. */
function runDescription(context: GateContext) {
  return {
    model: context.model,
    release: context.release,
    env: context.env,
    chat: context.chat,
    loop: context.loop,
    thinking: context.thinking,
    limits: context.limits,
    started_at: context.startedAt.toISOString(),
    finished_at: context.finishedAt.toISOString(),
    duration_seconds: Math.round((context.finishedAt.getTime() - context.startedAt.getTime()) / 10) / 100,
  }
}

export function buildGateReport(episodes: readonly GateEpisode[], context: GateContext): GateReport {
  const scored = episodes.filter((episode) => episode.status === 'scored')
  const unscored = episodes.filter((episode) => episode.status !== 'scored')
  const verdict = judgeRolloutRate({
    successes: scored.filter((episode) => episode.success).length,
    trials: scored.length,
    ...context.bounds,
  })
  const minDenominator = context.minDenominator ?? episodes.length
  const perPrompt = promptSignal(outcomesByPrompt(scored), context.limits.samples)
  const profile = context.profile ?? null
  const signals = gateSignals({ scored, profile, ...(context.labels ? { labels: context.labels } : {}) })
  const reasons = gateReasons({
    verdict,
    bounds: context.bounds,
    minDenominator,
    samples: context.limits.samples,
    perPrompt,
    signals,
    profile,
  })
  const infrastructure = unscored.length > 0 || scored.length === 0
  const status = infrastructure ? 'infrastructure_error' : reasons.length === 0 ? 'passed' : 'failed'
  return {
    format: gateReportFormat,
    gate: 'rollout_nonzero_reward_rate',
    status,
    passed: status === 'passed',
    rule: gateRule(context, verdict, minDenominator, profile),
    reasons: infrastructure ? [] : reasons.map((reason) => ({ ...reason })),
    signals: { profile: profile?.name ?? null, ...signals },
    numerator: verdict.numerator,
    denominator: verdict.denominator,
    rate: status === 'infrastructure_error' ? null : verdict.rate,
    nonzero_reward_rate: status === 'infrastructure_error' ? null : verdict.rate,
    ci95: status === 'infrastructure_error' ? null : verdict.ci95,
    per_prompt: { ...perPrompt },
    parse_failures: parseFailureCounts(scored),
    answers: answerCounts(scored),
    ends: tally(scored.map((episode) => episode.end)),
    tool_calls: toolCallCounts(scored),
    infrastructure: infrastructureCounts(unscored),
    usage: usageTotals(episodes),
    ...runDescription(context),
  }
}
