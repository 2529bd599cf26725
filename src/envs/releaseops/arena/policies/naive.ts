/** @module envs/releaseops/arena/policies: `naive`: approve every unresolved proposal in order (v1's baseline, unchanged). */
import { generatorPolicy } from '../../../../core/policy/policy.js'
import type { ReleaseOpsObservation } from '../releaseops-env-base.js'
import { approve, hold, unresolvedOf } from './calls.js'

export function naivePolicy() {
  return generatorPolicy<ReleaseOpsObservation>('naive', function* ({ observation: first }) {
    let observation = first
    for (;;) {
      const unresolved = unresolvedOf(observation.view)
      if (unresolved.length === 0) {
        observation = yield hold('awaiting_fix')
        continue
      }
      for (const proposal of unresolved) observation = yield approve(proposal.id)
    }
  })
}
