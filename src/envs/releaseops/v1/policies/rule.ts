/**
 * @module envs/releaseops/v1/policies: `rule_baseline`: inspect the first pr_/ci_ ref while evidence
 * lasts, block payments proposals with S2, approve the rest. Tickets are never inspected.
 */
import { approve, block, unresolvedProposalsPolicy } from './calls.js'

export function rulePolicy() {
  return unresolvedProposalsPolicy('rule', function* (first, unresolved) {
    let observation = first
    for (const proposal of unresolved) {
      if (proposal.refs.length > 0 && observation.view.evidence_actions_remaining > 0) {
        const ref = proposal.refs.find((item) => item.startsWith('pr_') || item.startsWith('ci_'))
        if (ref !== undefined) {
          observation = yield ref.startsWith('pr_')
            ? { name: 'inspect_pr_diff', arguments: { pr_id: ref } }
            : { name: 'inspect_ci_run', arguments: { run_id: ref } }
        }
      }
      observation = yield proposal.risk.includes('payments') ? block(proposal.id, 'S2') : approve(proposal.id)
    }
    return observation
  })
}
