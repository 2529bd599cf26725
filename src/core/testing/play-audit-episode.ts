/** @module core/testing: one audited episode, scored as eval summaries score it (the final `info.cumulative_reward`). */
import type { Env, Observation, ResetParams } from '../env/env-api.js'
import type { Policy } from '../policy/policy.js'

/**
 * One episode of `policy` from `reset`: the final `info.cumulative_reward` (a policy may stop at any time).
 * `handle` is the env the policy is given at its start (a privileged one reads through it; a test can
 * pass one that throws, to prove a policy never does).
 */
export function playAuditEpisode<O extends Observation>(
  env: Env<O>,
  policy: Policy<O>,
  reset: ResetParams,
  handle: Env<O> = env,
): number {
  const start = env.reset(reset)
  let observation = start.observation
  let reward = start.info.cumulative_reward
  const episode = policy.start({ observation, info: start.info, spec: env.spec, env: handle })
  for (;;) {
    const call = episode.act(observation)
    if (call === null) break
    const result = env.step(call)
    observation = result.observation
    reward = result.info.cumulative_reward
    if (result.terminated || result.truncated) break
  }
  return reward
}
