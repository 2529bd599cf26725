/**
 * @module envs/releaseops/v3: inspection as in v2, plus joint evidence: a joint artifact's text reads
 * its partner's visible draw, and its joint facts are verified once both have been inspected for the
 * candidate. Asking a worker is v2's (`askWorker`).
 */
import { artifactInspector } from '../arena/evidence-actions.js'
import type { EpisodeV3 } from './episode.js'
import { type JointArtifactTemplate, jointOf, partnerOf } from './joint-reveal.js'

export const inspectArtifactV3 = artifactInspector<EpisodeV3>({
  text: (episode, artifact) =>
    (artifact.template as JointArtifactTemplate).text(episode.facts, artifact.draw, partnerOf(episode.scenario, artifact)?.draw),
  alsoVerifies: (episode, artifact) => {
    const joint = jointOf(artifact)
    const partner = partnerOf(episode.scenario, artifact)
    return joint && partner && episode.inspected.has(partner.id) ? joint.facts : []
  },
})
