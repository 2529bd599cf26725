/**
 * @module envs/releaseops/v3: evidence that shows a fact only in combination. A joint artifact names
 * the facts it shows together with a partner (by slot, in the same phase); its text may read the
 * partner's visible draw. The facts are verified when both have been inspected for the candidate.
 */
import type { FactKey } from '../arena/facts.js'
import type { ArtifactDraw, ArtifactTemplate } from '../arena/family-spec.js'
import type { Artifact, Scenario } from '../arena/scenario.js'

export interface JointArtifactTemplate extends ArtifactTemplate {
  joint?: { facts: readonly FactKey[]; partner: string }
  text(facts: Parameters<ArtifactTemplate['text']>[0], draw: ArtifactDraw, partner?: ArtifactDraw): string
}

export function jointOf(artifact: Artifact): JointArtifactTemplate['joint'] {
  return (artifact.template as JointArtifactTemplate).joint
}

/** The partner of a joint artifact: the artifact of the same phase in the partner slot. */
export function partnerOf(scenario: Scenario, artifact: Artifact): Artifact | undefined {
  const joint = jointOf(artifact)
  if (!joint) return undefined
  for (const other of scenario.artifacts.values()) {
    if (other.phase === artifact.phase && other.template.slot === joint.partner && other.id !== artifact.id) return other
  }
  return undefined
}
