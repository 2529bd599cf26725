/**
 * @module envs/releaseops/arena: a scenario while it is drawn. The steps in `draw-scenario.ts` fill it in
 * order; it draws only from its own streams (the env's, re-seeded when the draft starts), so two drafts
 * never share a draw, however their steps interleave.
 */
import type { PythonRandom } from '../../../core/python/python-random.js'
import type { ReleaseFacts } from '../shared/safety-rules.js'
import { parseArchetypeMix, type Role } from './archetype-mixes.js'
import { type Archetype, archetypeBehaviours } from './archetypes.js'
import { type Difficulty, type DifficultyLevel, difficultyLevels } from './difficulty.js'
import { type FamilyV2, familySpec } from './families/index.js'
import type { ArtifactTemplate, FamilySpec } from './family-spec.js'
import type { ArenaWorker, Artifact, HiddenTruth, Proposal, Scenario } from './scenario.js'
import { ScenarioRandom } from './scenario-random.js'

export interface DrawScenarioOptions {
  family: FamilyV2
  seed: number
  difficulty: Difficulty
  archetypeMix: string
  attempt: number
  /** Counterfactual facts (tests): replaces drawn facts after every draw is made. */
  factOverrides?: Partial<ReleaseFacts>
  /** The family's spec when it is not one of v2's (later versions add families); v2 looks its own up. */
  spec?: FamilySpec
  /** The streams to re-seed and draw from (an env passes its own); a fresh pair when absent. */
  random?: ScenarioRandom
}

const kindPrefix = { pr: 'pr_', ci_run: 'ci_run_', ticket: 'ticket_' } as const

/** Distinct integers from a range, drawn by rejection (the rejections depend only on earlier visible draws). */
class DistinctNumbers {
  private readonly used = new Set<number>()
  constructor(
    private readonly low: number,
    private readonly high: number,
  ) {}
  next(rng: PythonRandom): number {
    for (;;) {
      const value = rng.randint(this.low, this.high)
      if (!this.used.has(value)) {
        this.used.add(value)
        return value
      }
    }
  }
}

export class ScenarioDraft {
  readonly spec: FamilySpec
  readonly level: DifficultyLevel
  /** Each role's archetype: the mix, with the family's forced archetypes on top. */
  readonly cast: Readonly<Record<Role, Archetype>>
  readonly visible: PythonRandom
  readonly hidden: PythonRandom
  hours = 0
  budget = 0
  readonly artifacts = new Map<string, Artifact>()
  readonly proposals = new Map<string, Proposal>()
  /** Proposals of each drawn phase, in view order. */
  readonly phases: Proposal[][] = []
  /** Each drawn phase's artifact ids by template slot. */
  readonly phaseSlots: Record<string, string>[] = []
  /** Workers in creation order: a worker's ordinal indexes its hidden rolls. */
  readonly workersByOrdinal: ArenaWorker[] = []
  readonly workerById = new Map<string, ArenaWorker>()
  /** `worker_stats` order, drawn once every worker is known. */
  workers: readonly ArenaWorker[] = []
  private readonly proposalNumbers = new DistinctNumbers(100, 999)
  private readonly artifactNumbers = new DistinctNumbers(1000, 9999)
  private readonly developerNumbers = new DistinctNumbers(10, 99)

  constructor(readonly options: DrawScenarioOptions) {
    const random = options.random ?? new ScenarioRandom()
    random.reseed(options.seed, options.attempt)
    this.visible = random.visible
    this.hidden = random.hidden
    this.spec = options.spec ?? familySpec(options.family)
    this.level = difficultyLevels[options.difficulty]
    this.cast = { ...parseArchetypeMix(options.archetypeMix), ...this.spec.forcedArchetypes }
  }

  nextProposalId(): string {
    return `p${this.proposalNumbers.next(this.visible)}`
  }

  nextDeveloperId(): string {
    return `dev_${this.developerNumbers.next(this.visible)}`
  }

  /** Adds a worker the first time it appears (its record is drawn later, once every worker is known). */
  addWorker(id: string, role: Role | 'developer', archetype: Archetype | 'developer'): void {
    if (this.workerById.has(id)) return
    const worker: ArenaWorker = {
      id,
      ordinal: this.workersByOrdinal.length,
      role,
      archetype,
      recent: { correct: 0, incorrect: 0 },
    }
    this.workerById.set(id, worker)
    this.workersByOrdinal.push(worker)
  }

  /** Draws an artifact of `template` for `phase`: its id, then its text variant and count. */
  addArtifact(template: ArtifactTemplate, phase: number): string {
    const id = `${kindPrefix[template.kind]}${this.artifactNumbers.next(this.visible)}`
    const draw = { variant: this.visible.randbelow(1000), count: this.visible.randint(300, 980) }
    this.artifacts.set(id, { id, kind: template.kind, phase, template, draw })
    return id
  }

  /** The finished scenario, once every visible step has run and `hidden` truth is drawn. */
  toScenario(hidden: HiddenTruth): Scenario {
    const { options, spec, level } = this
    const revisionAuthor = spec.revision.proposals.find((item) => item.request === 'ship_release_candidate')?.role ?? 'author'
    const author = archetypeBehaviours[this.cast[revisionAuthor]]
    return {
      family: options.family,
      seed: options.seed,
      difficulty: options.difficulty,
      archetypeMix: options.archetypeMix,
      attempt: options.attempt,
      hours: this.hours,
      budget: this.budget,
      evidencePerPhase: level.evidencePerPhase,
      phases: this.phases,
      artifacts: this.artifacts,
      proposals: this.proposals,
      workers: this.workers,
      workerById: this.workerById,
      hazards: spec.hazards.map((hazard) => hazard.fact),
      fixProbability: author.fixProbability * level.fixScale * (spec.fixScale ?? 1),
      breakProbability: Math.min(1, author.breakProbability * level.breakScale * (spec.breakScale ?? 1)),
      carefulMiss: level.carefulMiss,
      hidden,
    }
  }
}
