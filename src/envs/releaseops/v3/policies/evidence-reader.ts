/**
 * @module envs/releaseops/v3/policies: a general evidence reader, written once for every family. It
 * reads only the view and tool results. Per phase it inspects refs in a fixed order of proposal groups
 * (what dissenting workers cite, what the ship cites, what vouching proposals cite, the rest), may
 * prefer some artifact kinds within a group, follows an artifact that an inspected text names (a
 * re-run names the full run it re-ran), then decides from the verified checks alone: block what they
 * show broken on proposals that vouch for it, ship when nothing is. The options are the variants it
 * was tuned over on `train` (decision 0046); `dissentFirstReaderPolicy` is the best of them.
 */
import type { ToolCall } from '../../../../core/env/env-api.js'
import type { JsonObject } from '../../../../core/json/json-value.js'
import { generatorPolicy, type Policy } from '../../../../core/policy/policy.js'
import { verifiedViolations } from '../../arena/facts.js'
import type { ArenaObservationView, ProposalView } from '../../arena/observation-view.js'
import { approve, block, canInspect, hold, inspectByPrefix, isShip, unresolvedOf } from '../../arena/policies/calls.js'
import { normalizeRuleId, type RuleId, shortRuleId } from '../../shared/safety-rules.js'
import type { ReleaseOpsV3Observation } from '../releaseops-env.js'

/** Who cites a ref: a reading order is a sequence of these groups. */
export type ReaderGroup = 'dissenters' | 'ship' | 'vouchers' | 'rest'

export interface EvidenceReaderOptions {
  name: string
  /** Groups whose refs are read, in this order (a group left out is never read). */
  order: readonly ReaderGroup[]
  /** Within a group, refs of these kinds (id prefixes) first, in this order; the rest as cited. */
  kindOrder?: readonly string[]
  /** Within a group, refs cited by more proposals first. */
  mostCitedFirst?: boolean
  /** Replaces the group order: the refs to read this phase, in order (the memoriser's fixed reads). */
  readingList?: (view: ArenaObservationView) => string[]
  /** Read an artifact that an inspected text names before anything else. */
  followNamed: boolean
  /** Ask the dissenting worker for a risk summary first when evidence cannot cover the reading list. */
  askWhenScarce: boolean
  /** Nothing verified broken but refs left unread: hold for a fresh phase (before the last) instead of shipping. */
  holdWhenUnread: boolean
  /** Block the ship first (it vouches for every rule), or the vouching proposals first. */
  blockFirst: 'ship' | 'vouchers'
  /** Also block a voucher whose broken rule an accepted block already reported (each block risks a rejection). */
  blockReported: boolean
}

const vouches = (proposal: ProposalView) => Object.values(proposal.claims).includes('pass')
const dissents = (proposal: ProposalView) => Object.values(proposal.claims).includes('fail')

const inGroup: Record<ReaderGroup, (proposal: ProposalView) => boolean> = {
  dissenters: (proposal) => !isShip(proposal) && dissents(proposal),
  ship: isShip,
  vouchers: (proposal) => !isShip(proposal) && vouches(proposal),
  rest: () => true,
}

type OrderOptions = Pick<EvidenceReaderOptions, 'order' | 'kindOrder' | 'mostCitedFirst'>

/** The refs of this phase's proposals, group by group, each once. */
export function readingOrder(view: ArenaObservationView, options: OrderOptions): string[] {
  const citations = (ref: string) => view.proposals.filter((proposal) => proposal.refs.includes(ref)).length
  const kindRank = (ref: string) => {
    const index = (options.kindOrder ?? []).findIndex((prefix) => ref.startsWith(prefix))
    return index === -1 ? Number.MAX_SAFE_INTEGER : index
  }
  const refs: string[] = []
  for (const group of options.order) {
    const cited: string[] = []
    for (const proposal of view.proposals.filter(inGroup[group]))
      for (const ref of proposal.refs) if (!refs.includes(ref) && !cited.includes(ref)) cited.push(ref)
    const ranked = cited
      .map((ref, index) => ({ ref, index }))
      .sort(
        (left, right) =>
          (options.mostCitedFirst ? citations(right.ref) - citations(left.ref) : 0) ||
          kindRank(left.ref) - kindRank(right.ref) ||
          left.index - right.index,
      )
    refs.push(...ranked.map((item) => item.ref))
  }
  return refs
}

const artifactId = /\b(?:pr|ci_run|ticket)_\d+\b/g

/** Artifact ids an inspection's text names besides the one inspected. */
function namedArtifacts(result: JsonObject | undefined, inspected: string): string[] {
  const names: string[] = []
  for (const value of Object.values(result ?? {}))
    if (typeof value === 'string')
      for (const [name] of value.matchAll(artifactId)) if (name !== inspected && !names.includes(name)) names.push(name)
  return names
}

interface DecisionState {
  rejected: ReadonlySet<string>
  /** Rules an accepted block reported this phase. */
  reported: ReadonlySet<RuleId>
  unread: boolean
}

/** The rule to cite on `proposal`: a broken rule it vouches for that nothing reported yet (a ship vouches for all). */
function ruleToCite(proposal: ProposalView, broken: readonly RuleId[], state: DecisionState, again: boolean) {
  const vouched = isShip(proposal) ? broken : broken.filter((rule) => proposal.claims[rule] === 'pass')
  return vouched.find((rule) => !state.reported.has(rule)) ?? (again || isShip(proposal) ? vouched[0] : undefined)
}

/** Once reading is over: ship, block with evidence, approve the rest, or hold. */
function decide(view: ArenaObservationView, state: DecisionState, options: EvidenceReaderOptions): ToolCall {
  const broken = verifiedViolations(view.release_checks)
  const unresolved = unresolvedOf(view)
  if (unresolved.length === 0) return hold('awaiting_fix')
  if (broken.length === 0) {
    const ship = unresolved.find(isShip)
    if (ship && state.unread && options.holdWhenUnread && view.phase_index < 3) return hold('risk_too_high')
    return approve((ship ?? (unresolved[0] as ProposalView)).id)
  }
  const ships = unresolved.filter(isShip)
  const others = unresolved.filter((item) => !isShip(item))
  const ordered = options.blockFirst === 'ship' ? [...ships, ...others] : [...others, ...ships]
  const cite = (item: ProposalView) => ruleToCite(item, broken, state, options.blockReported)
  const target = ordered.find((item) => !state.rejected.has(item.id) && cite(item) !== undefined)
  if (target) return block(target.id, shortRuleId(cite(target) as RuleId))
  return others[0] ? approve(others[0].id) : hold('awaiting_fix')
}

export function evidenceReaderPolicy(options: EvidenceReaderOptions): Policy<ReleaseOpsV3Observation> {
  const listOf = options.readingList ?? ((view: ArenaObservationView) => readingOrder(view, options))
  return generatorPolicy<ReleaseOpsV3Observation>(options.name, function* ({ observation: start }) {
    let observation = start
    const read = new Set<string>()
    const rejected = new Set<string>()
    const reported = new Set<RuleId>()
    let phase = 0
    let first: string[] = []
    for (;;) {
      const view = observation.view
      if (phase !== view.phase_index) {
        phase = view.phase_index
        first = []
        reported.clear()
        const dissenter = view.proposals.find(inGroup.dissenters)
        const unread = listOf(view).filter((ref) => !read.has(ref))
        if (options.askWhenScarce && dissenter && canInspect(view) && view.evidence_actions_remaining < unread.length) {
          observation = yield { name: 'ask_worker', arguments: { worker_id: dissenter.worker, question_type: 'risk_summary' } }
          const said = (observation.result?.reported_checks ?? {}) as Partial<ArenaObservationView['release_checks']>
          if (verifiedViolations({ ...view.release_checks, ...said }).length > 0) first = dissenter.refs.slice()
          continue
        }
      }
      const next = [...first, ...listOf(view)].find((ref) => !read.has(ref))
      const inspect = next === undefined ? undefined : inspectByPrefix(next)
      if (next !== undefined && inspect && canInspect(view)) {
        read.add(next)
        observation = yield inspect
        if (options.followNamed && !observation.error)
          first = [...namedArtifacts(observation.result, next).filter((ref) => !read.has(ref)), ...first]
        continue
      }
      const call = decide(view, { rejected, reported, unread: next !== undefined }, options)
      observation = yield call
      const args = call.arguments as { proposal_id: string; rule_id: string }
      if (call.name !== 'block_proposal') continue
      if (observation.result?.accepted === false) rejected.add(args.proposal_id)
      else reported.add(normalizeRuleId(args.rule_id) as RuleId)
    }
  })
}

/** The options `dissent-first-reader` ships with: the best reader on `train` (decision 0046). */
export const dissentFirstReaderOptions: EvidenceReaderOptions = {
  name: 'dissent-first-reader',
  order: ['dissenters', 'ship', 'vouchers'],
  kindOrder: ['ci_run_'],
  followNamed: true,
  askWhenScarce: false,
  holdWhenUnread: false,
  blockFirst: 'vouchers',
  blockReported: true,
}

/**
 * `dissent-first-reader`: read what the dissenting workers cite, then the ship's refs, then the
 * vouchers', CI runs first within each; follow the full run a re-run names; block what is verified
 * broken (vouchers first, then the ship), ship when nothing is.
 */
export function dissentFirstReaderPolicy(): Policy<ReleaseOpsV3Observation> {
  return evidenceReaderPolicy(dissentFirstReaderOptions)
}
