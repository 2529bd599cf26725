/**
 * @module envs/releaseops/v2/policies: `oracle`, the privileged ceiling. It reads the hidden episode
 * through the env (in-process only) and plays the plan that proves every episode winnable. v3's oracle
 * is the same policy over its own env class and plan (`privilegedOracle`).
 */
import type { Env, ToolCall } from '../../../../core/env/env-api.js'
import { ReleaseOpsError } from '../../../../core/errors/release-ops-error.js'
import type { Policy } from '../../../../core/policy/policy.js'
import type { EpisodeV2 } from '../episode-v2.js'
import { oracleNextCall } from '../oracle-plan.js'
import { ReleaseOpsV2Env, type ReleaseOpsV2Observation } from '../releaseops-v2-env.js'

interface PrivilegedEnv<E extends EpisodeV2> {
  privilegedEpisode(): E | undefined
}

/** The oracle of a version: unwraps to its in-process env class and plays its plan on the live episode. */
export function privilegedOracle<E extends EpisodeV2, T extends PrivilegedEnv<E>>(options: {
  envId: string
  envClass: abstract new (...args: never[]) => T
  nextCall: (episode: E) => ToolCall | null
}): Policy<ReleaseOpsV2Observation> {
  const unwrap = (env: Env<ReleaseOpsV2Observation>): T => {
    let current: unknown = env
    for (let depth = 0; depth < 8 && !(current instanceof options.envClass); depth++) {
      current = (current as { unwrapped?: unknown; inner?: unknown }).unwrapped ?? (current as { inner?: unknown }).inner
    }
    if (!(current instanceof options.envClass)) {
      throw new ReleaseOpsError({
        code: 'privileged_policy_needs_env',
        message: `The oracle reads hidden state and runs only against an in-process ${options.envId} env.`,
      })
    }
    return current as T
  }
  return {
    name: 'oracle',
    start({ env }) {
      const inner = unwrap(env)
      return {
        act() {
          const episode = inner.privilegedEpisode()
          return episode ? options.nextCall(episode) : null
        },
      }
    },
  }
}

export function oraclePolicy(): Policy<ReleaseOpsV2Observation> {
  return privilegedOracle({ envId: 'releaseops-v2', envClass: ReleaseOpsV2Env, nextCall: oracleNextCall })
}
