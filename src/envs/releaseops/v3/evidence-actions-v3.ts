/**
 * @module envs/releaseops/v3: inspection as in v2, plus joint evidence: a joint artifact's text reads
 * its partner's visible draw, and its joint facts are verified once both have been inspected for the
 * candidate. Asking a worker is v2's (`askWorker`).
 */
import type { JsonObject } from '../../../core/json/json-value.js'
import { rewards } from '../shared/rewards.js'
import { failure, type ToolOutcome } from '../v2/episode-v2.js'
import { type EvidenceTool, evidenceTools } from '../v2/evidence-actions.js'
import { type FactKey, isFactBad, ruleOfFact } from '../v2/facts.js'
import type { ArtifactKind } from '../v2/family-spec.js'
import { artifactReveals } from '../v2/scenario-v2.js'
import type { EpisodeV3 } from './episode-v3.js'
import { type JointArtifactTemplate, jointOf, partnerOf } from './joint-reveal.js'

const kindNames: Record<ArtifactKind, string> = { pr: 'pull request', ci_run: 'CI run', ticket: 'ticket' }
const toolOfKind: Record<ArtifactKind, EvidenceTool> = {
  pr: 'inspect_pr_diff',
  ci_run: 'inspect_ci_run',
  ticket: 'inspect_ticket',
}

/** Records a verified fact; the first verification of a rule the first candidate breaks earns the bonus. */
function verify(episode: EpisodeV3, fact: FactKey): void {
  episode.checks[fact] = episode.facts[fact]
  const rule = ruleOfFact[fact]
  if (
    episode.phaseIndex === 1 &&
    isFactBad(episode.facts, fact) &&
    episode.initialViolations.has(rule) &&
    !episode.discovered.has(rule)
  ) {
    episode.discovered.add(rule)
    episode.addReward(rewards.inspection_revealed_true_violation)
  }
}

export function inspectArtifactV3(episode: EpisodeV3, tool: EvidenceTool, id: string): ToolOutcome {
  const kind = evidenceTools[tool]
  const scenario = episode.scenario
  const artifact = scenario.artifacts.get(id)
  if (!artifact) return failure('unknown_artifact', `Unknown ${kind.label}: ${id}`)
  if (artifact.kind !== kind.kind) {
    return failure(
      'wrong_artifact_kind',
      `${id} is a ${kindNames[artifact.kind]}, not a ${kindNames[kind.kind]}; use ${toolOfKind[artifact.kind]}.`,
    )
  }
  const cached = episode.inspected.get(id)
  if (cached) return { result: cached, changed: false }
  if (artifact.phase !== episode.phaseIndex) {
    return failure('artifact_not_in_play', `${id} belongs to an earlier candidate and was never inspected.`)
  }
  const spent = episode.spend()
  if (spent) return spent
  const reveals = artifactReveals(scenario, artifact)
  const template = artifact.template as JointArtifactTemplate
  const partner = partnerOf(scenario, artifact)
  const stale = reveals.length === 0 && template.staleText !== undefined
  const text = stale ? (template.staleText?.(artifact.draw) ?? '') : template.text(episode.facts, artifact.draw, partner?.draw)
  for (const fact of reveals) verify(episode, fact)
  const joint = jointOf(artifact)
  if (joint && partner && episode.inspected.has(partner.id)) for (const fact of joint.facts) verify(episode, fact)
  const result: JsonObject = { [kind.idKey]: id, [kind.textKey]: text }
  episode.inspected.set(id, result)
  return { result, changed: true }
}
