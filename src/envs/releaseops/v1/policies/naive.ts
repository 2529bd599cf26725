/** @module envs/releaseops/v1/policies: `naive_baseline`: approve every unresolved proposal in order. */
import { approve, unresolvedProposalsPolicy } from './calls.js'

export function naivePolicy() {
  return unresolvedProposalsPolicy('naive', function* (first, unresolved) {
    let observation = first
    for (const proposal of unresolved) observation = yield approve(proposal.id)
    return observation
  })
}
