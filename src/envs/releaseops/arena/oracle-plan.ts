/**
 * @module envs/releaseops/arena: the privileged plan that proves every episode winnable and sets the
 * ceiling. With the facts in hand: a clean candidate is shipped at once; otherwise it inspects the
 * set of first-candidate artifacts that verifies the most broken rules (the only reward above +1:
 * +0.2 per rule for 0.05 per inspection, within the phase's evidence and budget), reports every broken
 * rule with a true block on a distinct proposal that would keep it, and holds. Reported rules are
 * always repaired and an informed revision breaks nothing, so the next candidate ships safely. No
 * policy can score more: the plan takes the safe ship (+1) and every discovery bonus there is to take.
 */
import type { ToolCall } from '../../../core/env/env-api.js'
import { type RuleId, shortRuleId, violatedRules } from '../shared/safety-rules.js'
import type { ArenaEpisode } from './episode.js'
import { evidenceTools } from './evidence-actions.js'
import { type FactKey, factKeys, isFactBad, ruleOfFact } from './facts.js'
import { type Artifact, artifactReveals, type Proposal } from './scenario.js'

const toolOfKind = {
  pr: ['inspect_pr_diff', evidenceTools.inspect_pr_diff.idKey],
  ci_run: ['inspect_ci_run', evidenceTools.inspect_ci_run.idKey],
  ticket: ['inspect_ticket', evidenceTools.inspect_ticket.idKey],
} as const

/** Rules not yet discovered that inspecting `artifact` now would verify as broken (first candidate only). */
function newDiscoveries(episode: ArenaEpisode, artifact: Artifact): RuleId[] {
  const rules: RuleId[] = []
  for (const fact of artifactReveals(episode.scenario, artifact)) {
    const rule = ruleOfFact[fact]
    if (
      isFactBad(episode.facts, fact) &&
      episode.initialViolations.has(rule) &&
      !episode.discovered.has(rule) &&
      !rules.includes(rule)
    )
      rules.push(rule)
  }
  return rules
}

/** The first artifact of the smallest set that verifies the most undiscovered broken rules within the evidence left. */
function bestInspection(episode: ArenaEpisode): Artifact | undefined {
  if (episode.phaseIndex !== 1) return undefined
  const capacity = Math.min(episode.evidence, episode.budget)
  if (capacity <= 0) return undefined
  const candidates: { artifact: Artifact; rules: RuleId[] }[] = []
  for (const proposal of episode.activeProposals) {
    for (const ref of proposal.refs) {
      const artifact = episode.scenario.artifacts.get(ref)
      if (!artifact || episode.inspected.has(ref) || candidates.some((item) => item.artifact.id === ref)) continue
      const rules = newDiscoveries(episode, artifact)
      if (rules.length > 0) candidates.push({ artifact, rules })
    }
  }
  let best: { first: Artifact; covered: number; size: number } | undefined
  const search = (start: number, chosen: number[], covered: Set<RuleId>) => {
    if (chosen.length > 0) {
      const better = !best || covered.size > best.covered || (covered.size === best.covered && chosen.length < best.size)
      if (better)
        best = {
          first: (candidates[chosen[0] as number] as { artifact: Artifact }).artifact,
          covered: covered.size,
          size: chosen.length,
        }
    }
    if (chosen.length === capacity) return
    for (let index = start; index < candidates.length; index++) {
      const next = new Set(covered)
      for (const rule of (candidates[index] as { rules: RuleId[] }).rules) next.add(rule)
      search(index + 1, [...chosen, index], next)
    }
  }
  search(0, [], new Set())
  return best?.first
}

/** Broken facts a block citing `rule` on `proposal` would report now. */
function reportedBy(episode: ArenaEpisode, proposal: Proposal, rule: RuleId): FactKey[] {
  return proposal.covers.filter(
    (fact) => ruleOfFact[fact] === rule && isFactBad(episode.facts, fact) && !episode.reported.has(fact),
  )
}

/**
 * Blocks on distinct unresolved proposals that together report every broken fact not yet reported:
 * an exhaustive search (at most four facts, a handful of proposals) for the fewest blocks that report
 * the most facts, preferring proposals that vouch for fewer facts.
 */
function reportBlocks(episode: ArenaEpisode): { proposal: Proposal; rule: RuleId }[] {
  const open = factKeys.filter((fact) => isFactBad(episode.facts, fact) && !episode.reported.has(fact))
  return searchReportBlocks({ episode, open, reportedBy: (proposal, rule) => reportedBy(episode, proposal, rule) })
}

/**
 * The exhaustive block search both versions use: blocks on distinct unresolved proposals, fewest blocks
 * that report the most `open` facts, proposals that vouch for fewer facts first. `reportedBy` says which
 * facts a block would report (v3: only those with evidence for the candidate).
 */
export function searchReportBlocks(options: {
  episode: ArenaEpisode
  open: readonly FactKey[]
  reportedBy: (proposal: Proposal, rule: RuleId) => readonly FactKey[]
}): { proposal: Proposal; rule: RuleId }[] {
  const { episode, open } = options
  const rules = [...new Set(open.map((fact) => ruleOfFact[fact]))]
  const proposals = episode.activeProposals
    .filter((proposal) => episode.statusOf(proposal.id) === 'unresolved')
    .sort((left, right) => left.covers.length - right.covers.length)
  let best: { blocks: { proposal: Proposal; rule: RuleId }[]; reported: number } = { blocks: [], reported: 0 }
  const search = (used: Set<string>, covered: Set<FactKey>, blocks: { proposal: Proposal; rule: RuleId }[]) => {
    if (covered.size > best.reported || (covered.size === best.reported && blocks.length < best.blocks.length)) {
      best = { blocks, reported: covered.size }
    }
    if (covered.size === open.length) return
    for (const rule of rules) {
      for (const proposal of proposals) {
        if (used.has(proposal.id)) continue
        const gained = options.reportedBy(proposal, rule).filter((fact) => !covered.has(fact))
        if (gained.length === 0) continue
        search(new Set(used).add(proposal.id), new Set([...covered, ...gained]), [...blocks, { proposal, rule }])
      }
    }
  }
  search(new Set(), new Set(), [])
  return best.blocks
}

/** The call that inspects `artifact` with its kind's tool. */
function inspectCall(artifact: Artifact): ToolCall {
  const [name, key] = toolOfKind[artifact.kind]
  return { name, arguments: { [key]: artifact.id } }
}

/**
 * The plan's next call, shared by both versions: ship a clean candidate (or hold for one), else the
 * version's next inspection, else its first report block, else hold.
 */
export function planNextCall<E extends ArenaEpisode>(options: {
  episode: E
  nextInspection: (episode: E) => Artifact | undefined
  reportBlocks: (episode: E) => { proposal: Proposal; rule: RuleId }[]
}): ToolCall | null {
  const { episode } = options
  if (episode.done) return null
  if (violatedRules(episode.facts).length === 0) {
    const ship = episode.activeProposals.find(
      (proposal) => proposal.request === 'ship_release_candidate' && episode.statusOf(proposal.id) === 'unresolved',
    )
    return ship
      ? { name: 'approve_proposal', arguments: { proposal_id: ship.id } }
      : { name: 'hold_release', arguments: { reason_code: 'awaiting_fix' } }
  }
  const artifact = options.nextInspection(episode)
  if (artifact) return inspectCall(artifact)
  const report = options.reportBlocks(episode)[0]
  if (report) return { name: 'block_proposal', arguments: { proposal_id: report.proposal.id, rule_id: shortRuleId(report.rule) } }
  return { name: 'hold_release', arguments: { reason_code: 'awaiting_fix' } }
}

export function oracleNextCall(episode: ArenaEpisode): ToolCall | null {
  return planNextCall({ episode, nextInspection: bestInspection, reportBlocks })
}
