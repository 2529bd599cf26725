/**
 * Test support (issue 14): `evidence-heuristic` with one more reading rule, to show that the held-out
 * mix's partial re-runs are beaten by reading, not by privilege. A proposal whose claim says it re-ran
 * the failed jobs links a partial run: its CI refs are not read, and the refs of every other team
 * proposal (not `dev_` distractors) are, so the full run a teammate cites gets read. Everything else is
 * the shipped baseline, line for line.
 */

import { generatorPolicy } from '../../src/core/policy/policy.js'
import { type RuleId, shortRuleId } from '../../src/envs/releaseops/shared/safety-rules.js'
import { verifiedViolations } from '../../src/envs/releaseops/v2/facts.js'
import type { ObservationViewV2, ProposalViewV2 } from '../../src/envs/releaseops/v2/observation-view-v2.js'
import {
  approve,
  block,
  canInspect,
  hold,
  inspectByPrefix,
  isShip,
  unresolvedOf,
} from '../../src/envs/releaseops/v2/policies/calls.js'
import { rerunClaim } from '../../src/envs/releaseops/v3/partial-rerun.js'
import type { ReleaseOpsV3Observation } from '../../src/envs/releaseops/v3/releaseops-v3-env.js'

const vouches = (proposal: ProposalViewV2) => Object.values(proposal.claims).includes('pass')
const dissents = (proposal: ProposalViewV2) => Object.values(proposal.claims).includes('fail')

/** Refs worth reading, in order: the ship's, the vouching proposals', the dissenters', then (past a re-run) the team's. */
function readingList(view: ObservationViewV2, first: readonly string[]): string[] {
  const refs: string[] = [...first]
  const rerun = (proposal: ProposalViewV2) => proposal.claim.includes(rerunClaim)
  const add = (proposal: ProposalViewV2) => {
    for (const ref of proposal.refs) if (!refs.includes(ref) && !(rerun(proposal) && ref.startsWith('ci_run_'))) refs.push(ref)
  }
  for (const proposal of view.proposals.filter(isShip)) add(proposal)
  for (const proposal of view.proposals.filter((item) => !isShip(item) && vouches(item))) add(proposal)
  for (const proposal of view.proposals.filter((item) => !isShip(item) && dissents(item))) add(proposal)
  if (view.proposals.some(rerun))
    for (const proposal of view.proposals.filter((item) => !item.worker.startsWith('dev_') && !rerun(item))) add(proposal)
  return refs
}

function blockRule(proposal: ProposalViewV2, broken: readonly RuleId[]): RuleId | undefined {
  if (isShip(proposal)) return broken.find((rule) => proposal.claims[rule] === 'pass') ?? broken[0]
  return broken.find((rule) => proposal.claims[rule] === 'pass')
}

export function rerunReadingHeuristicPolicy() {
  return generatorPolicy<ReleaseOpsV3Observation>('rerun-reading-heuristic', function* ({ observation: start }) {
    let observation = start
    const read = new Set<string>()
    const rejected = new Set<string>()
    let plannedPhase = 0
    let first: string[] = []
    for (;;) {
      const view = observation.view
      const phase = view.phase_index
      if (plannedPhase !== phase) {
        plannedPhase = phase
        first = []
        const list = readingList(view, []).filter((ref) => !read.has(ref))
        const dissenter = view.proposals.find((item) => !isShip(item) && dissents(item))
        if (dissenter && canInspect(view) && view.evidence_actions_remaining < list.length) {
          observation = yield { name: 'ask_worker', arguments: { worker_id: dissenter.worker, question_type: 'risk_summary' } }
          const reported = (observation.result?.reported_checks ?? {}) as Record<string, boolean>
          const flagged = reported.open_p1_bug === true || reported.payment_tests_disabled === true
          if (flagged || reported.payment_tests_passing === false || reported.deploy_checks_passed === false)
            first = dissenter.refs.slice()
          continue
        }
      }
      const next = readingList(view, first).find((ref) => !read.has(ref))
      if (next !== undefined && canInspect(view)) {
        read.add(next)
        const call = inspectByPrefix(next)
        if (call) {
          observation = yield call
          continue
        }
      }
      const broken = verifiedViolations(view.release_checks)
      const unresolved = unresolvedOf(view)
      if (unresolved.length === 0) {
        observation = yield hold('awaiting_fix')
        continue
      }
      if (broken.length === 0) {
        const ship = unresolved.find(isShip)
        observation = yield ship ? approve(ship.id) : approve((unresolved[0] as ProposalViewV2).id)
        continue
      }
      const target = unresolved.find((item) => !rejected.has(item.id) && blockRule(item, broken) !== undefined)
      if (target) {
        observation = yield block(target.id, shortRuleId(blockRule(target, broken) as RuleId))
        if (observation.result?.accepted === false) rejected.add(target.id)
        continue
      }
      const rest = unresolved.find((item) => !isShip(item))
      observation = yield rest ? approve(rest.id) : hold('awaiting_fix')
    }
  })
}
