/**
 * @module envs/releaseops/v3/policies: `evidence-heuristic`, what a careful engineer writes in an
 * afternoon. Per phase: when evidence is too scarce to read everything the ship and the vouching
 * proposals cite, ask the dissenting worker for a risk summary and, if it names a broken rule, read its
 * refs first; then inspect the ship's refs, then the vouching proposals' refs, while evidence lasts.
 * Ship when the verified checks show nothing broken; otherwise block the ship and each proposal that
 * vouches for a verified broken rule, approve the rest and let the revision fix what was reported.
 */
import { generatorPolicy } from '../../../../core/policy/policy.js'
import { verifiedViolations } from '../../arena/facts.js'
import type { ArenaObservationView, ProposalView } from '../../arena/observation-view.js'
import { approve, block, canInspect, hold, inspectByPrefix, isShip, unresolvedOf } from '../../arena/policies/calls.js'
import { type RuleId, shortRuleId } from '../../shared/safety-rules.js'
import type { ReleaseOpsV3Observation } from '../releaseops-env.js'

const vouches = (proposal: ProposalView) => Object.values(proposal.claims).includes('pass')
const dissents = (proposal: ProposalView) => Object.values(proposal.claims).includes('fail')

/** Refs worth reading, in order: the ship's, then the vouching proposals', then the dissenters'. */
function shippedReadingList(view: ArenaObservationView, first: readonly string[]): string[] {
  const refs: string[] = [...first]
  const add = (proposal: ProposalView) => {
    for (const ref of proposal.refs) if (!refs.includes(ref)) refs.push(ref)
  }
  for (const proposal of view.proposals.filter(isShip)) add(proposal)
  for (const proposal of view.proposals.filter((item) => !isShip(item) && vouches(item))) add(proposal)
  for (const proposal of view.proposals.filter((item) => !isShip(item) && dissents(item))) add(proposal)
  return refs
}

function blockRule(proposal: ProposalView, broken: readonly RuleId[]): RuleId | undefined {
  if (isShip(proposal)) return broken.find((rule) => proposal.claims[rule] === 'pass') ?? broken[0]
  return broken.find((rule) => proposal.claims[rule] === 'pass')
}

/** What a variant may change: its name and its reading list (tests measure a reading rule against the shipped one). */
export interface EvidenceHeuristicOptions {
  name?: string
  readingList?: (view: ArenaObservationView, first: readonly string[]) => string[]
}

export function evidenceHeuristicPolicy(options: EvidenceHeuristicOptions = {}) {
  const readingList = options.readingList ?? shippedReadingList
  const name = options.name ?? 'evidence-heuristic'
  return generatorPolicy<ReleaseOpsV3Observation>(name, function* ({ observation: start }) {
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
        observation = yield ship ? approve(ship.id) : approve((unresolved[0] as ProposalView).id)
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
