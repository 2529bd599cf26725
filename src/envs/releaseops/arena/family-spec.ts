/**
 * @module envs/releaseops/arena: how a scenario family is declared. A family fixes the story (workers,
 * proposals, artifacts, which facts are at stake); the facts themselves are drawn per episode, so no
 * visible text, id or claim of a family depends on them. Artifact text is the only place a fact shows,
 * and only the facts an artifact `reveals` may change its text.
 */
import type { ProposalRequest } from '../shared/constants.js'
import type { ReleaseFacts, RuleId } from '../shared/safety-rules.js'
import type { ArchetypeMixId, Role } from './archetype-mixes.js'
import type { Archetype } from './archetypes.js'
import type { FactKey } from './facts.js'

const artifactKinds = ['pr', 'ci_run', 'ticket'] as const
export type ArtifactKind = (typeof artifactKinds)[number]

/** Visible numbers drawn for an artifact text (never from the facts). */
export interface ArtifactDraw {
  variant: number
  count: number
}

export interface ArtifactTemplate {
  slot: string
  kind: ArtifactKind
  /** The facts this artifact shows truthfully when inspected. */
  reveals: readonly FactKey[]
  /** The text for the candidate's facts; it may read only the facts in `reveals`. */
  text(facts: ReleaseFacts, draw: ArtifactDraw): string
  /** For a family with a stale artifact: the text it shows when stale (it then reveals nothing). */
  staleText?(draw: ArtifactDraw): string
  /** What a careful worker citing this artifact reports while it is stale. */
  staleReport?: Partial<Record<FactKey, boolean>>
}

export type RuleStance = Partial<Record<RuleId, 'pass' | 'fail'>>

export interface ProposalTemplate {
  role: Role
  request: ProposalRequest
  /** Artifact slots of the same phase. */
  refs: readonly string[]
  risk: readonly string[]
  /** Facts whose violation approving this proposal would ship or keep. Ship proposals cover every fact. */
  covers: 'all' | readonly FactKey[]
  /** Base claim texts; one is drawn, then the archetype's tone is appended. */
  claims: readonly string[]
  /** The `claims` field of the view: what the worker asserts about each rule. */
  stance: RuleStance
}

export interface PhaseTemplate {
  artifacts: readonly ArtifactTemplate[]
  proposals: readonly ProposalTemplate[]
}

export interface Hazard {
  fact: FactKey
  tier: 'primary' | 'secondary'
}

export interface FamilySpec {
  id: string
  description: string
  workers: Readonly<Record<Role, string>>
  defaultMix: ArchetypeMixId
  /** The facts that vary per episode; every other fact is fine. */
  hazards: readonly Hazard[]
  /** Multiplies the difficulty's hazard probabilities (a mostly-safe family uses < 1). */
  badScale?: number
  /** Roles whose archetype the family fixes whatever the mix says. */
  forcedArchetypes?: Partial<Record<Role, Archetype>>
  initial: PhaseTemplate
  /** What every phase advance brings: the author's revision and fresh evidence. */
  revision: PhaseTemplate
  /** Two phase-1 slots of which one (drawn per episode, hidden) is stale. */
  staleOneOf?: readonly [string, string]
  fixScale?: number
  breakScale?: number
}

/** Picks a text variant by a visible draw. */
export function pick(pool: readonly string[], draw: ArtifactDraw): string {
  return pool[draw.variant % pool.length] as string
}
