/**
 * @module envs/releaseops/v3: the privileged plan that proves every v3 episode winnable. With the facts
 * in hand: a clean candidate ships at once; otherwise it inspects, for each broken fact, the in-play
 * artifact (or joint pair) that verifies it, preferring artifacts that verify more broken facts, then
 * reports every verified broken fact with a counted block on a distinct proposal that vouches for it,
 * and holds. Reported facts are repaired and a revision after a counted block breaks nothing, so the
 * next candidate ships safely.
 */
import type { ToolCall } from '../../../core/env/env-api.js'
import { type FactKey, factKeys, isFactBad } from '../arena/facts.js'
import { planNextCall, searchReportBlocks } from '../arena/oracle-plan.js'
import { type Artifact, artifactReveals, type Proposal } from '../arena/scenario.js'
import type { RuleId } from '../shared/safety-rules.js'
import type { EpisodeV3 } from './episode.js'
import { jointOf, partnerOf } from './joint-reveal.js'
import { rerunSourcesOf } from './partial-rerun.js'

/**
 * Facts to verify before blocking: broken ones not yet reported, and (since a focused revision may
 * regress an unverified hazard) the fine hazards too, once anything is broken.
 */
function unverifiedWanted(episode: EpisodeV3): FactKey[] {
  const broken = factKeys.filter((fact) => isFactBad(episode.facts, fact) && !episode.reported.has(fact))
  if (broken.length === 0) return []
  const wanted = broken.filter((fact) => episode.checks[fact] === 'unverified')
  for (const fact of episode.scenario.hazards)
    if (!wanted.includes(fact) && episode.checks[fact] === 'unverified' && !isFactBad(episode.facts, fact)) wanted.push(fact)
  return wanted
}

/** The next artifact to inspect: the in-play one verifying the most unverified broken facts (a joint pair counts once both are read). */
function nextInspection(episode: EpisodeV3): Artifact | undefined {
  const wanted = unverifiedWanted(episode)
  if (wanted.length === 0 || Math.min(episode.evidence, episode.budget) <= 0) return undefined
  let best: { artifact: Artifact; score: number } | undefined
  const reruns = rerunSourcesOf(episode.scenario)
  for (const proposal of episode.activeProposals) {
    for (const ref of proposal.refs) {
      // Behind a partial re-run, the full run it re-ran (in play, named in the re-run's text).
      const artifact = episode.scenario.artifacts.get(reruns?.get(ref) ?? ref)
      if (!artifact || artifact.phase !== episode.phaseIndex || episode.inspected.has(artifact.id)) continue
      let score = artifactReveals(episode.scenario, artifact).filter((fact) => wanted.includes(fact)).length * 2
      const joint = jointOf(artifact)
      const partner = partnerOf(episode.scenario, artifact)
      if (joint && partner)
        score += joint.facts.filter((fact) => wanted.includes(fact)).length * (episode.inspected.has(partner.id) ? 2 : 1)
      if (score > 0 && (!best || score > best.score)) best = { artifact, score }
    }
  }
  return best?.artifact
}

/** Blocks on distinct unresolved proposals that together report every verified broken fact (fewest blocks). */
function reportBlocksV3(episode: EpisodeV3): { proposal: Proposal; rule: RuleId }[] {
  const open = factKeys.filter(
    (fact) => isFactBad(episode.facts, fact) && !episode.reported.has(fact) && episode.checks[fact] !== 'unverified',
  )
  return searchReportBlocks({
    episode,
    open,
    reportedBy: (proposal, rule) => episode.evidencedFacts(proposal, rule).filter((fact) => open.includes(fact)),
  })
}

export function oracleNextCallV3(episode: EpisodeV3): ToolCall | null {
  return planNextCall({ episode, nextInspection, reportBlocks: reportBlocksV3 })
}
