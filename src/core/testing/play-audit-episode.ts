/** @module core/testing: one audited episode, scored as eval summaries score it (the final `info.cumulative_reward`). */
import type { Env, EpisodeInfo, Observation, ResetParams } from '../env/env-api.js'
import type { Policy } from '../policy/policy.js'

/** How an audited episode ended: its score and what the env's episode summary needs. */
export interface AuditPlay {
  reward: number
  /** The info of the last step (or of reset when no step ran). */
  info: EpisodeInfo
  terminated: boolean
  truncated: boolean
}

/**
 * One episode of `policy` from `reset` (a policy may stop at any time). `handle` is the env the policy is
 * given at its start (a privileged one reads through it; a test can pass one that throws, to prove a
 * policy never does).
 */
export function playAuditEpisodeResult<O extends Observation>(
  env: Env<O>,
  policy: Policy<O>,
  reset: ResetParams,
  handle: Env<O> = env,
): AuditPlay {
  const start = env.reset(reset)
  let observation = start.observation
  let info = start.info
  let terminated = false
  let truncated = false
  const episode = policy.start({ observation, info: start.info, spec: env.spec, env: handle })
  for (;;) {
    const call = episode.act(observation)
    if (call === null) break
    const result = env.step(call)
    observation = result.observation
    info = result.info
    terminated = result.terminated
    truncated = result.truncated
    if (terminated || truncated) break
  }
  return { reward: info.cumulative_reward, info, terminated, truncated }
}

/** The episode's final `info.cumulative_reward`. */
export function playAuditEpisode<O extends Observation>(
  env: Env<O>,
  policy: Policy<O>,
  reset: ResetParams,
  handle: Env<O> = env,
): number {
  return playAuditEpisodeResult(env, policy, reset, handle).reward
}
