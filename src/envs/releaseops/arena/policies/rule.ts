/**
 * @module envs/releaseops/arena/policies: `rule`: v1's tag rules on v2's view. While evidence and budget
 * last it inspects each proposal's first pr_/ci_ ref; it blocks a proposal tagged `payments` (S2) or one
 * whose rule the checks now show broken, and approves the rest.
 */
import { generatorPolicy } from '../../../../core/policy/policy.js'
import { shortRuleId } from '../../shared/safety-rules.js'
import { verifiedViolations } from '../facts.js'
import type { ReleaseOpsObservation } from '../releaseops-env-base.js'
import { approve, block, canInspect, hold, inspectByPrefix, isShip, unresolvedOf } from './calls.js'

export function rulePolicy() {
  return generatorPolicy<ReleaseOpsObservation>('rule', function* ({ observation: first }) {
    let observation = first
    const inspected = new Set<string>()
    for (;;) {
      const unresolved = unresolvedOf(observation.view)
      if (unresolved.length === 0) {
        observation = yield hold('awaiting_fix')
        continue
      }
      for (const proposal of unresolved) {
        const ref = proposal.refs.find((item) => (item.startsWith('pr_') || item.startsWith('ci_')) && !inspected.has(item))
        if (ref !== undefined && canInspect(observation.view)) {
          inspected.add(ref)
          observation = yield inspectByPrefix(ref) as NonNullable<ReturnType<typeof inspectByPrefix>>
        }
        const broken = verifiedViolations(observation.view.release_checks)
        const contradicted = broken.find((rule) => isShip(proposal) || proposal.claims[rule] === 'pass')
        if (proposal.risk.includes('payments')) observation = yield block(proposal.id, 'S2')
        else if (contradicted !== undefined) observation = yield block(proposal.id, shortRuleId(contradicted))
        else observation = yield approve(proposal.id)
        if (observation.result?.terminal === true || observation.result?.updated_observation !== undefined) break
      }
    }
  })
}
