/** @module envs/releaseops/v1/policies: `naive_baseline`: approve every unresolved proposal in order. */
import { generatorPolicy } from '../../../../core/policy/policy.js'
import type { ReleaseOpsV1Observation } from '../releaseops-v1-env.js'
import { approve, hold } from './calls.js'

export function naivePolicy() {
  return generatorPolicy<ReleaseOpsV1Observation>('naive', function* ({ observation: first }) {
    let observation = first
    for (;;) {
      const unresolved = observation.view.proposals.filter((proposal) => proposal.status === 'unresolved')
      if (unresolved.length === 0) {
        observation = yield hold('awaiting_fix')
        continue
      }
      for (const proposal of unresolved) observation = yield approve(proposal.id)
    }
  })
}
