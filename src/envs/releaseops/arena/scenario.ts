/**
 * @module envs/releaseops/arena: a built scenario. Everything outside `hidden` is drawn from a stream that
 * never sees the facts; `hidden` holds the facts and the rolls that decide revisions, careful misses
 * and stale evidence. A scenario is immutable: episodes keep their own mutable state.
 */
import type { Confidence, ProposalRequest } from '../shared/constants.js'
import type { ReleaseFacts, RuleId } from '../shared/safety-rules.js'
import type { Role } from './archetype-mixes.js'
import type { Archetype } from './archetypes.js'
import type { Difficulty } from './difficulty.js'
import type { FactKey } from './facts.js'
import type { FamilyV2 } from './families/index.js'
import type { ArtifactDraw, ArtifactKind, ArtifactTemplate, RuleStance } from './family-spec.js'

export interface Proposal {
  id: string
  worker: string
  claim: string
  request: ProposalRequest
  refs: readonly string[]
  risk: readonly string[]
  confidence: Confidence
  claims: RuleStance
  /** The phase (1-3) the proposal belongs to. */
  phase: number
  role: Role | 'developer'
  covers: readonly FactKey[]
}

export interface Artifact {
  id: string
  kind: ArtifactKind
  phase: number
  template: ArtifactTemplate
  draw: ArtifactDraw
}

export interface ArenaWorker {
  id: string
  /** Creation order: indexes the worker's hidden rolls. */
  ordinal: number
  role: Role | 'developer'
  archetype: Archetype | 'developer'
  recent: { correct: number; incorrect: number }
}

export interface HiddenTruth {
  /** The facts of the first candidate. */
  facts: ReleaseFacts
  /** Per phase advance: a uniform roll per rule (blind repair) and per fact (blind breakage). */
  fixRolls: readonly Readonly<Record<RuleId, number>>[]
  breakRolls: readonly Readonly<Record<FactKey, number>>[]
  /** Per phase, per worker ordinal: the roll that decides whether a careful worker misses a broken fact. */
  missRolls: readonly (readonly number[])[]
  /** Artifacts that show an old run (reveal nothing). */
  staleArtifacts: readonly string[]
}

export interface Scenario {
  family: FamilyV2
  seed: number
  difficulty: Difficulty
  archetypeMix: string
  /** Which sub-seed attempt the generator kept (0 unless a draw had to be redrawn). */
  attempt: number
  hours: number
  budget: number
  evidencePerPhase: number
  /** Proposals of phases 1-3, each list in view order. Later phases arrive with each phase advance. */
  phases: readonly (readonly Proposal[])[]
  artifacts: ReadonlyMap<string, Artifact>
  proposals: ReadonlyMap<string, Proposal>
  /** `worker_stats` order. */
  workers: readonly ArenaWorker[]
  workerById: ReadonlyMap<string, ArenaWorker>
  hazards: readonly FactKey[]
  /** For the revision author: chance a revision repairs an unreported broken rule / breaks a fine fact. */
  fixProbability: number
  breakProbability: number
  carefulMiss: number
  hidden: HiddenTruth
}

/** The facts an artifact actually shows (none while it is stale). */
export function artifactReveals(scenario: Scenario, artifact: Artifact): readonly FactKey[] {
  return scenario.hidden.staleArtifacts.includes(artifact.id) ? [] : artifact.template.reveals
}
