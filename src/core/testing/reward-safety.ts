/**
 * @module core/testing: does the env's reward rank policies the way safety does? Over every policy the
 * audit plays (ladder, exploits, searched, memoriser, perturbed), the rank agreement of average reward with
 * a low unsafe rate, with the safe rate and with their difference (safe minus unsafe), and the discordant
 * pairs: a policy that scores more than another while it ships unsafe more often; `net_behind` marks the
 * pairs where its extra safe ships do not make up for the extra unsafe ones either. Per episode: the cheapest unsafe outcome against the dearest
 * cautious one (no unsafe outcome, no invalid call), and the unsafe penalty at which every unsafe episode
 * would score below every cautious one. Pure, like the rest of the audit.
 */
import { kendallTauB, spearmanRho } from './rank-agreement.js'

/** Which outcome rates and values of the env's episode summary mean what. */
export interface SafetyOutcomes {
  /** The rate of the outcome the env exists to prevent (e.g. `unsafe_ship`). */
  unsafe: string
  /** The rate of the outcome it pays for (e.g. `safe_ship`). */
  safe: string
  /** The per-episode value counting invalid calls (not caution: an invalid call is a mistake). */
  invalid?: string
  /** The reward the env gives the unsafe outcome today, for the penalty that would make it dominant. */
  unsafePenalty: number
}

export interface PolicySafety {
  name: string
  avg_reward: number
  safe_rate: number
  unsafe_rate: number
}

export interface SafetyEpisode {
  reward: number
  unsafe: boolean
  /** No unsafe outcome and no invalid call: whatever it cost, it was caution. */
  cautious: boolean
}

export interface Agreement {
  spearman: number | null
  kendall: number | null
}

export interface DiscordantPair {
  /** The policy with the higher average reward… */
  higher: string
  /** …and the one it outscores while shipping unsafe less often. */
  lower: string
  reward: [number, number]
  unsafe: [number, number]
  safe: [number, number]
  /** The higher-scoring policy's safe minus unsafe rate is lower too. */
  net_behind: boolean
}

export interface RewardSafetyReport {
  policies: number
  /** Reward against a low unsafe rate: 1 when more reward always means fewer unsafe outcomes. */
  low_unsafe: Agreement
  /** Reward against the safe rate. */
  safe: Agreement
  /** Reward against safe minus unsafe rate (the part of the reward a safe or unsafe outcome decides). */
  net_safe: Agreement
  /** Pairs where the higher-scoring policy ships unsafe more often, largest unsafe gap first. */
  discordant: DiscordantPair[]
  /** Of those, the pairs that are `net_behind`. */
  discordant_net_behind: number
  /** Per episode: the dearest cautious outcome and the cheapest unsafe one. */
  episodes: {
    worst_cautious: { reward: number; policy: string } | null
    best_unsafe: { reward: number; policy: string } | null
    /** Every unsafe episode scores below every cautious one. */
    unsafe_always_worse: boolean
    /** The largest unsafe penalty (rounded down to 0.1) under which that would hold on these episodes. */
    penalty_needed: number | null
  }
}

const round3 = (value: number) => Math.round(value * 1000) / 1000
const roundOrNull = (value: number | null) => (value === null ? null : round3(value))

const net = (policy: PolicySafety) => policy.safe_rate - policy.unsafe_rate

export function agreementOf(policies: readonly PolicySafety[]): {
  low_unsafe: Agreement
  safe: Agreement
  net_safe: Agreement
} {
  const rewards = policies.map((policy) => policy.avg_reward)
  const against = (other: readonly number[]): Agreement => ({
    spearman: roundOrNull(spearmanRho(rewards, other)),
    kendall: roundOrNull(kendallTauB(rewards, other)),
  })
  return {
    low_unsafe: against(policies.map((policy) => -policy.unsafe_rate)),
    safe: against(policies.map((policy) => policy.safe_rate)),
    net_safe: against(policies.map(net)),
  }
}

export function discordantPairs(policies: readonly PolicySafety[]): DiscordantPair[] {
  const pairs: DiscordantPair[] = []
  for (const a of policies)
    for (const b of policies)
      if (a.avg_reward > b.avg_reward && a.unsafe_rate > b.unsafe_rate)
        pairs.push({
          higher: a.name,
          lower: b.name,
          reward: [a.avg_reward, b.avg_reward],
          unsafe: [a.unsafe_rate, b.unsafe_rate],
          safe: [a.safe_rate, b.safe_rate],
          net_behind: net(a) < net(b),
        })
  const gap = (pair: DiscordantPair) => pair.unsafe[0] - pair.unsafe[1]
  return pairs.sort((left, right) => gap(right) - gap(left) || left.higher.localeCompare(right.higher))
}

export function rewardSafety(options: {
  policies: readonly PolicySafety[]
  episodes: ReadonlyMap<string, readonly SafetyEpisode[]>
  unsafePenalty: number
}): RewardSafetyReport {
  const { policies } = options
  const agreement = agreementOf(policies)
  const discordant = discordantPairs(policies)
  let worst: { reward: number; policy: string } | null = null
  let best: { reward: number; policy: string } | null = null
  for (const [policy, episodes] of options.episodes)
    for (const episode of episodes) {
      if (episode.unsafe && (best === null || episode.reward > best.reward)) best = { reward: episode.reward, policy }
      if (episode.cautious && (worst === null || episode.reward < worst.reward)) worst = { reward: episode.reward, policy }
    }
  // Shifting the unsafe penalty by d shifts every unsafe episode by d and nothing else.
  const penaltyNeeded = worst && best ? Math.floor((options.unsafePenalty + worst.reward - best.reward) * 10 - 1e-9) / 10 : null
  return {
    policies: policies.length,
    ...agreement,
    discordant,
    discordant_net_behind: discordant.filter((pair) => pair.net_behind).length,
    episodes: {
      worst_cautious: worst && { reward: round3(worst.reward), policy: worst.policy },
      best_unsafe: best && { reward: round3(best.reward), policy: best.policy },
      unsafe_always_worse: worst !== null && best !== null && best.reward < worst.reward,
      penalty_needed: penaltyNeeded === null ? null : round3(penaltyNeeded),
    },
  }
}

/** The same policies with the unsafe penalty moved to `penalty` (each unsafe episode shifts by the difference). */
export function withUnsafePenalty(policies: readonly PolicySafety[], options: { from: number; to: number }): PolicySafety[] {
  return policies.map((policy) => ({
    ...policy,
    avg_reward: round3(policy.avg_reward + (options.to - options.from) * policy.unsafe_rate),
  }))
}
