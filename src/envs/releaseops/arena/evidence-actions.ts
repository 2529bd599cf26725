/**
 * @module envs/releaseops/arena: the evidence tools. An inspection verifies exactly the facts its artifact
 * reveals (into `release_checks`) and earns the discovery bonus the first time it shows a rule the
 * first candidate breaks. Asking a worker costs the same as an inspection; only careful workers answer
 * from the facts. Re-reading an artifact or repeating a question is free and changes nothing.
 */
import type { JsonObject } from '../../../core/json/json-value.js'
import type { QuestionType } from '../shared/constants.js'
import { rewards } from '../shared/rewards.js'
import { type ArenaEpisode, failure, type ToolOutcome } from './episode.js'
import { type FactKey, isFactBad, ruleOfFact } from './facts.js'
import type { ArtifactKind } from './family-spec.js'
import { type Artifact, artifactReveals } from './scenario.js'
import { workerAnswer } from './worker-answer.js'

export const evidenceTools = {
  inspect_pr_diff: { kind: 'pr', idKey: 'pr_id', textKey: 'diff', label: 'PR ID' },
  inspect_ci_run: { kind: 'ci_run', idKey: 'run_id', textKey: 'output', label: 'CI Run ID' },
  inspect_ticket: { kind: 'ticket', idKey: 'ticket_id', textKey: 'details', label: 'Ticket ID' },
} as const satisfies Record<string, { kind: ArtifactKind; idKey: string; textKey: string; label: string }>

export type EvidenceTool = keyof typeof evidenceTools

const kindNames: Record<ArtifactKind, string> = { pr: 'pull request', ci_run: 'CI run', ticket: 'ticket' }
const toolOfKind: Record<ArtifactKind, EvidenceTool> = {
  pr: 'inspect_pr_diff',
  ci_run: 'inspect_ci_run',
  ticket: 'inspect_ticket',
}

/** How a version reads an inspected, non-stale artifact: its text, and facts it verifies beyond its own reveals. */
export interface ArtifactReading<E extends ArenaEpisode> {
  text(episode: E, artifact: Artifact): string
  alsoVerifies(episode: E, artifact: Artifact): readonly FactKey[]
}

/** Records a verified fact; the first verification of a rule the first candidate breaks earns the bonus. */
function verify(episode: ArenaEpisode, fact: FactKey): void {
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

/** The inspection tool of a version (v3 adds joint evidence through its reading). */
export function artifactInspector<E extends ArenaEpisode>(
  reading: ArtifactReading<E>,
): (episode: E, tool: EvidenceTool, id: string) => ToolOutcome {
  return (episode, tool, id) => {
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
    const stale = reveals.length === 0 && artifact.template.staleText !== undefined
    const text = stale ? (artifact.template.staleText?.(artifact.draw) ?? '') : reading.text(episode, artifact)
    for (const fact of reveals) verify(episode, fact)
    for (const fact of reading.alsoVerifies(episode, artifact)) verify(episode, fact)
    const result: JsonObject = { [kind.idKey]: id, [kind.textKey]: text }
    episode.inspected.set(id, result)
    return { result, changed: true }
  }
}

export const inspectArtifact = artifactInspector<ArenaEpisode>({
  text: (episode, artifact) => artifact.template.text(episode.facts, artifact.draw),
  alsoVerifies: () => [],
})

export function askWorker(episode: ArenaEpisode, workerId: string, questionType: QuestionType): ToolOutcome {
  const proposal = episode.activeProposals.find((item) => item.worker === workerId)
  if (!proposal) return failure('no_active_proposal', `No active proposal from worker: ${workerId}`)
  const key = `${workerId}:${questionType}`
  const cached = episode.answers.get(key)
  if (cached) return { result: cached, changed: false }
  const spent = episode.spend()
  if (spent) return spent
  const result = workerAnswer({ episode, proposal, questionType })
  episode.answers.set(key, result)
  return { result, changed: true }
}
