/** @module envs/releaseops/arena/policies: tool-call builders and view helpers shared by the v2 baselines. */
import type { ArenaObservationView, ProposalView } from '../observation-view.js'

export { approve, block, hold, inspectByPrefix } from '../../shared/policy-calls.js'

export const unresolvedOf = (view: ArenaObservationView): ProposalView[] =>
  view.proposals.filter((proposal) => proposal.status === 'unresolved')

export const isShip = (proposal: ProposalView) => proposal.request === 'ship_release_candidate'

/** An evidence action can be paid for now. */
export const canInspect = (view: ArenaObservationView) => view.evidence_actions_remaining > 0 && view.review_budget_remaining > 0
