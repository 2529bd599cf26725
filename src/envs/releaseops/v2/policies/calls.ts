/** @module envs/releaseops/v2/policies: tool-call builders and view helpers shared by the v2 baselines. */
import type { ToolCall } from '../../../../core/env/env-api.js'
import type { ObservationViewV2, ProposalViewV2 } from '../observation-view-v2.js'

export const approve = (proposalId: string): ToolCall => ({ name: 'approve_proposal', arguments: { proposal_id: proposalId } })
export const block = (proposalId: string, ruleId: string): ToolCall => ({
  name: 'block_proposal',
  arguments: { proposal_id: proposalId, rule_id: ruleId },
})
export const hold = (reasonCode: string): ToolCall => ({ name: 'hold_release', arguments: { reason_code: reasonCode } })

/** The inspect call matching an artifact id's prefix, or undefined for an id of no known kind. */
export function inspectByPrefix(ref: string): ToolCall | undefined {
  if (ref.startsWith('pr_')) return { name: 'inspect_pr_diff', arguments: { pr_id: ref } }
  if (ref.startsWith('ci_run_')) return { name: 'inspect_ci_run', arguments: { run_id: ref } }
  if (ref.startsWith('ticket_')) return { name: 'inspect_ticket', arguments: { ticket_id: ref } }
  return undefined
}

export const unresolvedOf = (view: ObservationViewV2): ProposalViewV2[] =>
  view.proposals.filter((proposal) => proposal.status === 'unresolved')

export const isShip = (proposal: ProposalViewV2) => proposal.request === 'ship_release_candidate'

/** An evidence action can be paid for now. */
export const canInspect = (view: ObservationViewV2) => view.evidence_actions_remaining > 0 && view.review_budget_remaining > 0
