/**
 * @module envs/releaseops/arena/policies: `phase-aware-rule`, v1's best baseline on v2's view. It inspects
 * the riskiest ship proposal once per phase (ref chosen by its risk tag, as in v1). Where v1 read the
 * leaked `possible_rule_violations`, it reads the verified `release_checks`: when they show a broken
 * rule it blocks the proposals that would ship or vouch for it and holds for a revision; otherwise it
 * approves in order. With no way to check a risky ship (no evidence or budget) it holds, as v1 did.
 */
import { generatorPolicy } from '../../../../core/policy/policy.js'
import { preferredRef, riskScore } from '../../shared/policy-calls.js'
import { type RuleId, shortRuleId } from '../../shared/safety-rules.js'
import { verifiedViolations } from '../facts.js'
import type { ProposalView } from '../observation-view.js'
import type { ReleaseOpsObservation } from '../releaseops-env-base.js'
import { approve, block, canInspect, hold, inspectByPrefix, isShip, unresolvedOf } from './calls.js'

export { preferredRef, riskScore } from '../../shared/policy-calls.js'

function blockingRule(proposal: ProposalView, broken: readonly RuleId[]): RuleId | undefined {
  return broken.find((rule) => proposal.claims[rule] === 'pass') ?? (isShip(proposal) ? broken[0] : undefined)
}

export function phaseAwareRulePolicy() {
  return generatorPolicy<ReleaseOpsObservation>('phase-aware-rule', function* ({ observation: first }) {
    let observation = first
    let inspectedPhase = 0
    for (;;) {
      const unresolved = unresolvedOf(observation.view)
      if (unresolved.length === 0) {
        observation = yield hold('awaiting_fix')
        continue
      }
      const phase = observation.view.phase_index
      // Array.prototype.sort is stable, as Python's sorted is.
      const target = unresolved.filter(isShip).sort((left, right) => riskScore(left) - riskScore(right))[0]
      const ref = target ? preferredRef(target) : undefined
      if (ref !== undefined && inspectedPhase !== phase) {
        if (!canInspect(observation.view)) {
          observation = yield hold('awaiting_fix')
          continue
        }
        inspectedPhase = phase
        observation = yield inspectByPrefix(ref) as NonNullable<ReturnType<typeof inspectByPrefix>>
      }
      const broken = verifiedViolations(observation.view.release_checks)
      for (const proposal of unresolved) {
        const rule = broken.length > 0 ? blockingRule(proposal, broken) : undefined
        observation = yield rule === undefined ? approve(proposal.id) : block(proposal.id, shortRuleId(rule))
        if (observation.result?.terminal === true || observation.result?.updated_observation !== undefined) break
      }
      if (broken.length > 0 && observation.view.phase_index === phase && unresolvedOf(observation.view).length > 0) {
        observation = yield hold('awaiting_fix')
      }
    }
  })
}
