/** @module envs/releaseops/v1/policies: tool-call builders and the turn loop shared by the baselines. */
import type { ToolCall } from '../../../../core/env/env-api.js'
import { generatorPolicy, type Policy } from '../../../../core/policy/policy.js'
import { hold } from '../../shared/policy-calls.js'
import type { ProposalViewV1 } from '../observation-view.js'
import type { ReleaseOpsV1Observation } from '../releaseops-env.js'

export { approve, block, hold, inspectByPrefix } from '../../shared/policy-calls.js'

/** One turn of a baseline: the calls it makes, returning the observation the last one brought. */
export type BaselineTurn = Generator<ToolCall, ReleaseOpsV1Observation, ReleaseOpsV1Observation>

/**
 * The loop every v1 baseline runs: hold (awaiting a fix) while no proposal is unresolved, else play a
 * turn over the unresolved proposals, in order.
 */
export function unresolvedProposalsPolicy(
  name: string,
  turn: (observation: ReleaseOpsV1Observation, unresolved: ProposalViewV1[]) => BaselineTurn,
): Policy<ReleaseOpsV1Observation> {
  return generatorPolicy<ReleaseOpsV1Observation>(name, function* ({ observation: first }) {
    let observation = first
    for (;;) {
      const unresolved = observation.view.proposals.filter((proposal) => proposal.status === 'unresolved')
      observation = unresolved.length === 0 ? yield hold('awaiting_fix') : yield* turn(observation, unresolved)
    }
  })
}
