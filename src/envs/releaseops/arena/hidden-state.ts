/** @module envs/releaseops/arena: the hidden truth of an episode as JSON (debugging and tests; never in an observation). */
import type { JsonObject } from '../../../core/json/json-value.js'
import type { OracleProof } from './build-scenario.js'
import type { ArenaEpisode } from './episode.js'
import { artifactReveals } from './scenario.js'

export function hiddenStateOf(episode: ArenaEpisode, proof: OracleProof): JsonObject {
  const scenario = episode.scenario
  return {
    family: scenario.family,
    seed: scenario.seed,
    difficulty: scenario.difficulty,
    archetype_mix: scenario.archetypeMix,
    generation_attempt: scenario.attempt,
    initial_facts: { ...scenario.hidden.facts },
    current_facts: { ...episode.facts },
    hazards: [...scenario.hazards],
    stale_artifacts: [...scenario.hidden.staleArtifacts],
    fix_probability: scenario.fixProbability,
    break_probability: scenario.breakProbability,
    workers: scenario.workers.map((worker) => ({ worker: worker.id, role: worker.role, archetype: worker.archetype })),
    artifacts: [...scenario.artifacts.values()].map((artifact) => ({
      id: artifact.id,
      kind: artifact.kind,
      phase: artifact.phase,
      reveals: [...artifactReveals(scenario, artifact)],
    })),
    proposals: [...scenario.proposals.values()].map((proposal) => ({
      id: proposal.id,
      phase: proposal.phase,
      role: proposal.role,
      covers: [...proposal.covers],
    })),
    reported: [...episode.reported],
    discovered: [...episode.discovered],
    oracle: { terminal_reason: proof.terminalReason, reward: proof.reward, steps: proof.steps },
  }
}
