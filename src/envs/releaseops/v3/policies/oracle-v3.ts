/**
 * @module envs/releaseops/v3/policies: `oracle`, the privileged ceiling. It reads the hidden episode
 * through the env (in-process only) and plays the plan that proves every v3 episode winnable.
 */
import type { Env } from '../../../../core/env/env-api.js'
import { ReleaseOpsError } from '../../../../core/errors/release-ops-error.js'
import type { Policy } from '../../../../core/policy/policy.js'
import { oracleNextCallV3 } from '../oracle-plan-v3.js'
import { ReleaseOpsV3Env, type ReleaseOpsV3Observation } from '../releaseops-v3-env.js'

function unwrap(env: Env<ReleaseOpsV3Observation>): ReleaseOpsV3Env {
  let current: unknown = env
  for (let depth = 0; depth < 8 && !(current instanceof ReleaseOpsV3Env); depth++) {
    current = (current as { unwrapped?: unknown; inner?: unknown }).unwrapped ?? (current as { inner?: unknown }).inner
  }
  if (!(current instanceof ReleaseOpsV3Env)) {
    throw new ReleaseOpsError({
      code: 'privileged_policy_needs_env',
      message: 'The oracle reads hidden state and runs only against an in-process releaseops-v3 env.',
    })
  }
  return current
}

export function oracleV3Policy(): Policy<ReleaseOpsV3Observation> {
  return {
    name: 'oracle',
    start({ env }) {
      const inner = unwrap(env)
      return {
        act() {
          const episode = inner.privilegedEpisode()
          return episode ? oracleNextCallV3(episode) : null
        },
      }
    },
  }
}
