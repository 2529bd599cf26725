/**
 * @module envs/releaseops/arena/families: proposal templates by request. The request fixes what a proposal
 * covers (a ship keeps every fact, a hold none), so a family names only what its worker says and cites;
 * a revision is mostly the same worker proposing the same thing again with a new claim.
 */
import type { FactKey } from '../facts.js'
import type { ProposalTemplate } from '../family-spec.js'

/** What a family writes for one proposal: who, what it cites, and what it claims. */
export type ProposalParts = Omit<ProposalTemplate, 'request' | 'covers'>

/** A ship: approving it ships the candidate, so it covers every fact. */
export const shipProposal = (parts: ProposalParts): ProposalTemplate => ({
  ...parts,
  request: 'ship_release_candidate',
  covers: 'all',
})

/** A hold: approving it keeps nothing back from the release, so it covers no fact. */
export const holdProposal = (parts: ProposalParts): ProposalTemplate => ({ ...parts, request: 'hold_release_gate', covers: [] })

/** A triage approval, covering the facts it vouches for (`'all'` for a blanket "ship it"). */
export const triageProposal = (parts: ProposalParts & { covers: 'all' | readonly FactKey[] }): ProposalTemplate => ({
  ...parts,
  request: 'approve_triage',
})

/** The same proposal made again in the revision: new claims, and the refs of the new phase where they differ. */
export const proposeAgain = (
  proposal: ProposalTemplate,
  claims: readonly string[],
  refs: readonly string[] = proposal.refs,
): ProposalTemplate => ({ ...proposal, claims, refs })
