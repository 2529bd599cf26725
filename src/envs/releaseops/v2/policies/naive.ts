/** @module envs/releaseops/v2/policies: `naive`: approve every unresolved proposal in order (v1's baseline, unchanged). */
import { generatorPolicy } from '../../../../core/policy/policy.js'
import type { ReleaseOpsV2Observation } from '../releaseops-v2-env.js'
import { approve, hold, unresolvedOf } from './calls.js'

export function naivePolicy() {
  return generatorPolicy<ReleaseOpsV2Observation>('naive', function* ({ observation: first }) {
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
