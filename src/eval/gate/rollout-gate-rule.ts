/**
 * @module eval/gate: the rollout gate's rule (pure). RLOO learns only from prompts whose n rollouts do not
 * all get the same reward; after SFT, a nonzero-reward rate below 5% leaves most groups dead (and near 0%
 * usually means a broken parser, loop or reward), above 30% leaves little headroom. The gate passes only
 * for a rate in [lower, upper], bounds inclusive; the report also gives the Wilson 95% interval and the
 * share of prompts with 0 < k < n successes, the learning signal RLOO actually sees.
 */
import { wilsonInterval } from '../wilson-interval.js'

const defaultGateBounds = { lower: 0.05, upper: 0.3 } as const
/** A formal gate's bounds: fixed, never an option (custom bounds are exploration, which preflight refuses). */
export const formalGateBounds = defaultGateBounds
/** A formal gate covers the whole split or at least this many episodes. */
export const minimumGateEpisodes = 200

/** The fewest scored episodes a gate over `splitEpisodes` (rows × samples) may decide on. */
export function requiredGateDenominator(options: { splitEpisodes: number; minimum?: number }): number {
  return options.minimum ?? Math.min(options.splitEpisodes, minimumGateEpisodes)
}

export function isFormalBounds(bounds: { lower: number; upper: number }): boolean {
  return bounds.lower === formalGateBounds.lower && bounds.upper === formalGateBounds.upper
}

export interface GateVerdict {
  numerator: number
  denominator: number
  rate: number | null
  ci95: [number, number] | null
  passed: boolean
}

const epsilon = 1e-12

export function judgeRolloutRate(options: { successes: number; trials: number; lower?: number; upper?: number }): GateVerdict {
  const lower = options.lower ?? defaultGateBounds.lower
  const upper = options.upper ?? defaultGateBounds.upper
  if (options.trials <= 0)
    return { numerator: options.successes, denominator: options.trials, rate: null, ci95: null, passed: false }
  const rate = options.successes / options.trials
  return {
    numerator: options.successes,
    denominator: options.trials,
    rate,
    ci95: wilsonInterval(options.successes, options.trials),
    passed: rate >= lower - epsilon && rate <= upper + epsilon,
  }
}

export interface PromptSignal {
  samples_per_prompt: number
  prompts: number
  /** Prompts whose samples had 0 < k < n successes (a nonzero RLOO advantage). */
  mixed_prompts: number
  /** Their share; null with one sample per prompt, where no prompt can be mixed. */
  mixed_share: number | null
  all_zero_prompts: number
  all_success_prompts: number
}

/** Per prompt, the successes of its samples (every prompt must have the same number of samples). */
export function promptSignal(outcomes: ReadonlyMap<string, readonly boolean[]>, samples: number): PromptSignal {
  let mixed = 0
  let allZero = 0
  let allSuccess = 0
  for (const results of outcomes.values()) {
    const successes = results.filter(Boolean).length
    if (successes === 0) allZero++
    else if (successes === results.length) allSuccess++
    else mixed++
  }
  return {
    samples_per_prompt: samples,
    prompts: outcomes.size,
    mixed_prompts: mixed,
    mixed_share: samples < 2 || outcomes.size === 0 ? null : mixed / outcomes.size,
    all_zero_prompts: allZero,
    all_success_prompts: allSuccess,
  }
}
