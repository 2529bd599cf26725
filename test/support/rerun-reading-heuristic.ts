/**
 * Test support (issue 14): `evidence-heuristic` with one more reading rule, to show that the held-out
 * mix's partial re-runs are beaten by reading, not by privilege. A proposal whose claim says it re-ran
 * the failed jobs links a partial run: its CI refs are not read, and the refs of every other team
 * proposal (not `dev_` distractors) are, so the full run a teammate cites gets read. Everything else is
 * the shipped baseline (the same policy, with this reading list).
 */

import type { ArenaObservationView, ProposalView } from '../../src/envs/releaseops/arena/observation-view.js'
import { isShip } from '../../src/envs/releaseops/arena/policies/calls.js'
import { rerunClaim } from '../../src/envs/releaseops/v3/partial-rerun.js'
import { evidenceHeuristicPolicy } from '../../src/envs/releaseops/v3/policies/evidence-heuristic.js'

const vouches = (proposal: ProposalView) => Object.values(proposal.claims).includes('pass')
const dissents = (proposal: ProposalView) => Object.values(proposal.claims).includes('fail')

/** Refs worth reading, in order: the ship's, the vouching proposals', the dissenters', then (past a re-run) the team's. */
function rerunReadingList(view: ArenaObservationView, first: readonly string[]): string[] {
  const refs: string[] = [...first]
  const rerun = (proposal: ProposalView) => proposal.claim.includes(rerunClaim)
  const add = (proposal: ProposalView) => {
    for (const ref of proposal.refs) if (!refs.includes(ref) && !(rerun(proposal) && ref.startsWith('ci_run_'))) refs.push(ref)
  }
  for (const proposal of view.proposals.filter(isShip)) add(proposal)
  for (const proposal of view.proposals.filter((item) => !isShip(item) && vouches(item))) add(proposal)
  for (const proposal of view.proposals.filter((item) => !isShip(item) && dissents(item))) add(proposal)
  if (view.proposals.some(rerun))
    for (const proposal of view.proposals.filter((item) => !item.worker.startsWith('dev_') && !rerun(item))) add(proposal)
  return refs
}

export function rerunReadingHeuristicPolicy() {
  return evidenceHeuristicPolicy({ name: 'rerun-reading-heuristic', readingList: rerunReadingList })
}
