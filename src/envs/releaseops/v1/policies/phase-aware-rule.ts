/**
 * @module envs/releaseops/v1/policies: `phase_aware_rule_baseline`: inspect the riskiest ship proposal
 * once by a per-risk ref preference, then block what lists a possible violation and approve the rest.
 */
import { preferredRef, riskScore } from '../../shared/policy-calls.js'
import type { ProposalViewV1 } from '../observation-view.js'
import { approve, block, hold, inspectByPrefix, unresolvedProposalsPolicy } from './calls.js'

export { preferredRef, riskScore } from '../../shared/policy-calls.js'

const isShip = (proposal: ProposalViewV1) => proposal.request === 'ship_release_candidate'

export function phaseAwareRulePolicy() {
  return unresolvedProposalsPolicy('phase-aware-rule', function* (first, unresolved) {
    let observation = first
    // Array.prototype.sort is stable, as Python's sorted is.
    const target = unresolved.filter(isShip).sort((left, right) => riskScore(left) - riskScore(right))[0]
    if (target && observation.view.evidence_actions_remaining > 0 && target.refs.length > 0) {
      const ref = preferredRef(target)
      const call = ref === undefined ? undefined : inspectByPrefix(ref)
      if (call) observation = yield call
    }
    if (observation.view.evidence_actions_remaining === 0) {
      const risky = observation.view.proposals.some(
        (proposal) => proposal.status === 'unresolved' && isShip(proposal) && riskScore(proposal) < 3,
      )
      if (risky) return yield hold('awaiting_fix')
    }
    for (const proposal of unresolved) {
      const rule = proposal.possible_rule_violations[0]
      observation = yield rule === undefined ? approve(proposal.id) : block(proposal.id, rule)
    }
    return observation
  })
}
