/**
 * @module core/testing: the exploit audit's reward-against-safety section: agreement and discordant pairs
 * over every played policy, the per-episode comparison of unsafe and cautious outcomes, and the same
 * measured again at the unsafe penalty that would make every unsafe episode the worst, with the exploit
 * bar recomputed there (a penalty that makes blind caution pay would fail the audit).
 */
import type { EpisodeOutcome } from '../env/env-dataset.js'
import type { AuditRow } from './exploit-audit.js'
import {
  type Agreement,
  agreementOf,
  discordantPairs,
  type PolicySafety,
  type RewardSafetyReport,
  rewardSafety,
  type SafetyEpisode,
  type SafetyOutcomes,
  withUnsafePenalty,
} from './reward-safety.js'

export interface ScoredEpisode {
  reward: number
  outcome: EpisodeOutcome
}

export interface PenaltyCheck {
  unsafe_penalty: number
  low_unsafe: Agreement
  net_safe: Agreement
  discordant: number
  discordant_net_behind: number
  /** The exploit bar at that penalty: min(max exploit reward, evidence baseline − margin). */
  threshold: number
  /**
   * The best evidence-free strategy there (exploits and searched) and the spread (standard deviation) of
   * its episode rewards: 0 means it scores the same on every row, a start that group-relative RL cannot
   * learn from.
   */
  best_exploit: { name: string; avg_reward: number; spread: number } | null
  exploits_below_threshold: boolean
}

export interface AuditRewardSafety extends RewardSafetyReport {
  /** The env's unsafe penalty today, and the best evidence-free strategy under it. */
  unsafe_penalty: number
  best_exploit: PenaltyCheck['best_exploit']
  /** Everything above, measured again with the unsafe penalty at `episodes.penalty_needed`. */
  at_penalty_needed: PenaltyCheck | null
}

const round3 = (value: number) => Math.round(value * 1000) / 1000

interface AuditRewardSafetyOptions {
  rows: readonly AuditRow[]
  episodes: ReadonlyMap<string, readonly ScoredEpisode[]>
  safety: SafetyOutcomes
  evidenceBaseline: string
  maxExploitReward: number
  margin: number
}

export function auditRewardSafety(options: AuditRewardSafetyOptions): AuditRewardSafety {
  const { safety } = options
  const policies: PolicySafety[] = options.rows
    .filter((row) => row.unsafe_rate !== undefined && row.safe_rate !== undefined)
    .map((row) => ({
      name: row.name,
      avg_reward: row.avg_reward,
      safe_rate: row.safe_rate as number,
      unsafe_rate: row.unsafe_rate as number,
    }))
  const episodes = new Map<string, SafetyEpisode[]>()
  for (const [name, scored] of options.episodes)
    episodes.set(
      name,
      scored.map(({ reward, outcome }) => {
        const unsafe = outcome.rates[safety.unsafe] === true
        const invalid = safety.invalid === undefined ? 0 : (outcome.values[safety.invalid] ?? 0)
        return { reward, unsafe, cautious: !unsafe && invalid === 0 }
      }),
    )
  const report = rewardSafety({ policies, episodes, unsafePenalty: safety.unsafePenalty })
  const needed = report.episodes.penalty_needed
  const check = (penalty: number) => penaltyCheck({ ...options, policies, safetyEpisodes: episodes, penalty })
  return {
    ...report,
    unsafe_penalty: safety.unsafePenalty,
    best_exploit: check(safety.unsafePenalty).best_exploit,
    at_penalty_needed: needed === null ? null : check(needed),
  }
}

function spreadOf(rewards: readonly number[]): number {
  const mean = rewards.reduce((total, value) => total + value, 0) / Math.max(1, rewards.length)
  const variance = rewards.reduce((total, value) => total + (value - mean) ** 2, 0) / Math.max(1, rewards.length)
  return round3(Math.sqrt(variance))
}

function penaltyCheck(
  options: AuditRewardSafetyOptions & {
    policies: readonly PolicySafety[]
    safetyEpisodes: ReadonlyMap<string, readonly SafetyEpisode[]>
    penalty: number
  },
): PenaltyCheck {
  const shift = options.penalty - options.safety.unsafePenalty
  const shifted = withUnsafePenalty(options.policies, { from: options.safety.unsafePenalty, to: options.penalty })
  const reward = new Map(shifted.map((policy) => [policy.name, policy.avg_reward]))
  const evidence = reward.get(options.evidenceBaseline) ?? Number.NaN
  const threshold = round3(Math.min(options.maxExploitReward, evidence - options.margin))
  let best: { name: string; avg_reward: number } | null = null
  for (const row of options.rows) {
    if (row.group !== 'exploit' && row.group !== 'search') continue
    const value = reward.get(row.name)
    if (value !== undefined && (best === null || value > best.avg_reward)) best = { name: row.name, avg_reward: value }
  }
  const bestEpisodes = best ? (options.safetyEpisodes.get(best.name) ?? []) : []
  const agreement = agreementOf(shifted)
  const discordant = discordantPairs(shifted)
  return {
    unsafe_penalty: options.penalty,
    low_unsafe: agreement.low_unsafe,
    net_safe: agreement.net_safe,
    discordant: discordant.length,
    discordant_net_behind: discordant.filter((pair) => pair.net_behind).length,
    threshold,
    best_exploit: best && {
      ...best,
      spread: spreadOf(bestEpisodes.map((episode) => episode.reward + (episode.unsafe ? shift : 0))),
    },
    exploits_below_threshold: best === null || best.avg_reward <= threshold,
  }
}
