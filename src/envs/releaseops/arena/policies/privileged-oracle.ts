/**
 * @module envs/releaseops/arena/policies: the privileged oracle of a version. It reads the hidden episode
 * through the env (in-process only) and plays the version's plan, which proves every episode winnable;
 * v2 and v3 each bind it to their env class and plan.
 */
import type { Env, ToolCall } from '../../../../core/env/env-api.js'
import { ReleaseOpsError } from '../../../../core/errors/release-ops-error.js'
import type { Policy } from '../../../../core/policy/policy.js'
import type { ArenaEpisode } from '../episode.js'
import type { ReleaseOpsObservation } from '../releaseops-env-base.js'

interface PrivilegedEnv<E extends ArenaEpisode> {
  privilegedEpisode(): E | undefined
}

/** The oracle of a version: unwraps to its in-process env class and plays its plan on the live episode. */
export function privilegedOracle<E extends ArenaEpisode, T extends PrivilegedEnv<E>>(options: {
  envId: string
  envClass: abstract new (...args: never[]) => T
  nextCall: (episode: E) => ToolCall | null
}): Policy<ReleaseOpsObservation> {
  const unwrap = (env: Env<ReleaseOpsObservation>): T => {
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
