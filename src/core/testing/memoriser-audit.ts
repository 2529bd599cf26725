/**
 * @module core/testing: the memoriser of the exploit audit, the learner held-out slices exist to catch.
 * It remembers its training rows: for each key a training row has (most specific first, e.g. family ×
 * difficulty, then difficulty alone) it keeps the candidate plan that scored best on the training rows
 * with that key, and plays an audited row with the plan of its first key seen in training. A held-out
 * slice that is meant to test generalisation must cost it at least `minDrop` against the seen slices;
 * otherwise remembering the training slices is as good as reading, and the slice measures nothing.
 * Framework-free and pure, like the rest of the audit.
 */
import type { Env, Observation, ResetParams } from '../env/env-api.js'
import { InternalInvariantError } from '../errors/internal-invariant-error.js'
import type { AuditStrategy } from './exploit-audit.js'
import { type AuditPlay, playAuditEpisode, playAuditEpisodeResult } from './play-audit-episode.js'

/** A reset with its lookup keys, most specific first. */
export interface KeyedReset {
  keys: readonly string[]
  reset: ResetParams
}

export interface MemoriserOptions<O extends Observation = Observation> {
  /** Fixed plans: which evidence to read and how to decide, the same in every episode. */
  plans: readonly AuditStrategy<O>[]
  /** The training episodes the lookup is fitted on. */
  fit: readonly KeyedReset[]
  /** The keys of each audited reset, index for index. */
  keys: readonly (readonly string[])[]
  /** Each held-out slice that catches memorisers must cost it at least this much against the seen slices. */
  minDrop: number
}

export interface FittedMemoriser {
  /** Key → the name of the plan it plays. */
  lookup: Record<string, string>
  /** Plays audited reset `index` (by its keys): its final `info.cumulative_reward` and how it ended. */
  play(index: number, reset: ResetParams): AuditPlay
}

/** Fits the lookup on the training episodes (every plan on every episode) and returns the player. */
export function fitMemoriser<O extends Observation>(env: Env<O>, options: MemoriserOptions<O>): FittedMemoriser {
  const policies = options.plans.map((plan) => plan.policy())
  const sums = new Map<string, number[]>()
  for (const { keys, reset } of options.fit) {
    const rewards = policies.map((policy) => playAuditEpisode(env, policy, reset))
    for (const key of keys) {
      const total = sums.get(key) ?? policies.map(() => 0)
      rewards.forEach((reward, index) => {
        total[index] = (total[index] as number) + reward
      })
      sums.set(key, total)
    }
  }
  // Ties go to the earlier plan, so the lookup is deterministic.
  const best = new Map([...sums].map(([key, totals]) => [key, totals.indexOf(Math.max(...totals))]))
  const lookup = Object.fromEntries([...best].map(([key, index]) => [key, (options.plans[index] as AuditStrategy<O>).name]))
  return {
    lookup,
    play(index, reset) {
      const key = (options.keys[index] ?? []).find((item) => best.has(item))
      if (key === undefined)
        throw new InternalInvariantError(`The memoriser saw none of the keys of audited reset ${index} in training.`)
      return playAuditEpisodeResult(env, policies[best.get(key) as number] as never, reset)
    },
  }
}
