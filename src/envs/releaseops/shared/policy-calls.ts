/** @module envs/releaseops: tool-call builders and the risk ordering the hand-written baselines of every version share. */
import type { ToolCall } from '../../../core/env/env-api.js'

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

interface RiskyProposal {
  risk: readonly string[]
  refs: readonly string[]
}

const riskyTags = ['payments', 'p1', 'deploy'] as const

/** payments 0, p1 1, deploy 2, anything else 3 (the original phase-aware baseline's order). */
export function riskScore(proposal: RiskyProposal): number {
  const index = riskyTags.findIndex((tag) => proposal.risk.includes(tag))
  return index === -1 ? 3 : index
}

const refPreference: Record<number, readonly string[]> = {
  0: ['pr_', 'ci_run_', 'ticket_'],
  1: ['ticket_', 'pr_', 'ci_run_'],
  2: ['ci_run_', 'ticket_', 'pr_'],
}

/** The ref to inspect first for a proposal's risk tag; none for an untagged proposal. */
export function preferredRef(proposal: RiskyProposal): string | undefined {
  for (const prefix of refPreference[riskScore(proposal)] ?? []) {
    const ref = proposal.refs.find((item) => item.startsWith(prefix))
    if (ref !== undefined) return ref
  }
  return undefined
}
