/**
 * @module envs/releaseops/v2/policies: `oracle`, the privileged ceiling. It reads the hidden episode
 * through the env (in-process only) and plays the plan that proves every episode winnable.
 */
import type { Env } from '../../../../core/env/env-api.js'
import { ReleaseOpsError } from '../../../../core/errors/release-ops-error.js'
import type { Policy } from '../../../../core/policy/policy.js'
import { oracleNextCall } from '../oracle-plan.js'
import { ReleaseOpsV2Env, type ReleaseOpsV2Observation } from '../releaseops-v2-env.js'

function unwrap(env: Env<ReleaseOpsV2Observation>): ReleaseOpsV2Env {
  let current: unknown = env
  for (let depth = 0; depth < 8 && !(current instanceof ReleaseOpsV2Env); depth++) {
    current = (current as { unwrapped?: unknown; inner?: unknown }).unwrapped ?? (current as { inner?: unknown }).inner
  }
  if (!(current instanceof ReleaseOpsV2Env)) {
    throw new ReleaseOpsError({
      code: 'privileged_policy_needs_env',
      message: 'The oracle reads hidden state and runs only against an in-process releaseops-v2 env.',
    })
  }
  return current
}

export function oraclePolicy(): Policy<ReleaseOpsV2Observation> {
  return {
    name: 'oracle',
    start({ env }) {
      const inner = unwrap(env)
      return {
        act() {
          const episode = inner.privilegedEpisode()
          return episode ? oracleNextCall(episode) : null
        },
      }
    },
  }
}
