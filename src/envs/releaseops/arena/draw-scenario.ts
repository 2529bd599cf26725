/**
 * @module envs/releaseops/arena: one attempt at a scenario. Two generators: `visible` draws everything a
 * policy can ever see (ids, texts, numbers, order, budget, deadline) and `hidden` draws the facts and
 * the rolls. The visible stream never reads the hidden one, so flipping a fact changes no visible draw.
 */
import { PythonRandom } from '../../../core/python/python-random.js'
import { cleanReleaseFacts, type ReleaseFacts, ruleIds } from '../shared/safety-rules.js'
import { distractorClaims, distractorTicketText } from '../v1/texts.js'
import { type ArchetypeMix, parseArchetypeMix, type Role } from './archetype-mixes.js'
import { type Archetype, archetypeBehaviours, developerRecord } from './archetypes.js'
import { type Difficulty, difficultyLevels } from './difficulty.js'
import { badValue, factKeys } from './facts.js'
import { type FamilyV2, familySpec } from './families/index.js'
import type { ArtifactTemplate, FamilySpec, PhaseTemplate } from './family-spec.js'
import type { ArtifactV2, HiddenTruth, ProposalV2, ScenarioV2, WorkerV2 } from './scenario.js'

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
}

const phaseCount = 3
const kindPrefix = { pr: 'pr_', ci_run: 'ci_run_', ticket: 'ticket_' } as const

const distractorTicket: ArtifactTemplate = { slot: 'ticket', kind: 'ticket', reveals: [], text: () => distractorTicketText }
const decoys = [
  { claim: 'Updated the payment page copy and button colours.', risk: ['payments', 'ui'] },
  { claim: 'Tweaked the checkout progress bar animation.', risk: ['checkout', 'ui'] },
  { claim: 'Renamed panels on the deploy dashboard.', risk: ['deploy', 'ui'] },
] as const

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

/**
 * Stream seeds: 2|seed| (+1 when negative) keeps seeds apart; attempt and stream take the low 8 bits.
 * Kept a number below 2^32 when it fits (CPython's one-word seeding, the generator's fast path).
 */
function streamSeed(seed: number, attempt: number, stream: 0 | 1): number | bigint {
  const folded = Math.abs(seed) * 2 + (seed < 0 ? 1 : 0)
  const value = folded * 256 + attempt * 2 + stream
  return Number.isSafeInteger(value) ? value : BigInt(folded) * 256n + BigInt(attempt * 2 + stream)
}

// One generator per stream, re-seeded per draw (allocating and filling 624 words twice per reset
// dominated the profile). Draws are synchronous and never nested, and each worker thread has its own.
const visibleStream = new PythonRandom(0)
const hiddenStream = new PythonRandom(0)

function rollsFor<K extends string>(keys: readonly K[], rng: PythonRandom): Record<K, number> {
  const rolls = {} as Record<K, number>
  for (const key of keys) rolls[key] = rng.random()
  return rolls
}

function archetypesFor(spec: FamilySpec, mix: ArchetypeMix): Record<Role, Archetype> {
  return { ...mix, ...spec.forcedArchetypes }
}

export function drawScenario(options: DrawScenarioOptions): ScenarioV2 {
  const spec = options.spec ?? familySpec(options.family)
  const level = difficultyLevels[options.difficulty]
  const visible = visibleStream
  visible.seed(streamSeed(options.seed, options.attempt, 0))
  const cast = archetypesFor(spec, parseArchetypeMix(options.archetypeMix))
  const hours = visible.choice(level.hours)
  const budget = visible.randint(level.budget[0], level.budget[1])
  const proposalNumbers = new DistinctNumbers(100, 999)
  const artifactNumbers = new DistinctNumbers(1000, 9999)
  const developerNumbers = new DistinctNumbers(10, 99)
  const artifacts = new Map<string, ArtifactV2>()
  const proposals = new Map<string, ProposalV2>()
  const workerOrder: WorkerV2[] = []
  const workerById = new Map<string, WorkerV2>()
  const addWorker = (id: string, role: Role | 'developer', archetype: Archetype | 'developer') => {
    if (workerById.has(id)) return
    const worker: WorkerV2 = { id, ordinal: workerOrder.length, role, archetype, recent: { correct: 0, incorrect: 0 } }
    workerById.set(id, worker)
    workerOrder.push(worker)
  }
  const addArtifact = (template: ArtifactTemplate, phase: number): string => {
    const id = `${kindPrefix[template.kind]}${artifactNumbers.next(visible)}`
    artifacts.set(id, {
      id,
      kind: template.kind,
      phase,
      template,
      draw: { variant: visible.randbelow(1000), count: visible.randint(300, 980) },
    })
    return id
  }
  const phases: ProposalV2[][] = []
  const slotIds: Record<string, string>[] = []
  for (let phase = 1; phase <= phaseCount; phase++) {
    const template: PhaseTemplate = phase === 1 ? spec.initial : spec.revision
    const slots: Record<string, string> = {}
    for (const artifact of template.artifacts) slots[artifact.slot] = addArtifact(artifact, phase)
    const list: ProposalV2[] = []
    for (const item of template.proposals) {
      const archetype = cast[item.role]
      const behaviour = archetypeBehaviours[archetype]
      const worker = spec.workers[item.role]
      addWorker(worker, item.role, archetype)
      const proposal: ProposalV2 = {
        id: `p${proposalNumbers.next(visible)}`,
        worker,
        claim: `${visible.choice(item.claims)} ${visible.choice(behaviour.claimTones)}`,
        request: item.request,
        refs: item.refs.map((slot) => slots[slot] as string),
        risk: item.risk,
        confidence: behaviour.confidence,
        claims: item.stance,
        phase,
        role: item.role,
        covers: item.covers === 'all' ? factKeys : item.covers,
      }
      list.push(proposal)
    }
    const range = phase === 1 ? level.distractors : level.laterDistractors
    const count = visible.randint(range[0], range[1])
    const decoyCount = Math.min(count, visible.randint(level.decoys[0], level.decoys[1]))
    for (let index = 0; index < count; index++) {
      const worker = `dev_${developerNumbers.next(visible)}`
      addWorker(worker, 'developer', 'developer')
      const ticket = addArtifact(distractorTicket, phase)
      const decoy = index < decoyCount ? visible.choice(decoys) : undefined
      list.push({
        id: `p${proposalNumbers.next(visible)}`,
        worker,
        claim: decoy ? decoy.claim : visible.choice(distractorClaims),
        request: 'approve_triage',
        refs: [ticket],
        risk: decoy ? decoy.risk : ['ui'],
        confidence: visible.choice(['medium', 'high'] as const),
        claims: {},
        phase,
        role: 'developer',
        covers: [],
      })
    }
    visible.shuffle(list)
    for (const proposal of list) proposals.set(proposal.id, proposal)
    phases.push(list)
    slotIds.push(slots)
  }
  for (const worker of workerOrder) {
    const record = worker.archetype === 'developer' ? developerRecord : archetypeBehaviours[worker.archetype]
    worker.recent = {
      correct: visible.randint(record.correct[0], record.correct[1]),
      incorrect: visible.randint(record.incorrect[0], record.incorrect[1]),
    }
  }
  const workers = workerOrder.slice()
  visible.shuffle(workers)

  const hidden = drawHidden({ options, spec, workers: workerOrder, phase1Slots: slotIds[0] as Record<string, string> })
  const revisionAuthor = spec.revision.proposals.find((item) => item.request === 'ship_release_candidate')?.role ?? 'author'
  const author = archetypeBehaviours[cast[revisionAuthor]]
  return {
    family: options.family,
    seed: options.seed,
    difficulty: options.difficulty,
    archetypeMix: options.archetypeMix,
    attempt: options.attempt,
    hours,
    budget,
    evidencePerPhase: level.evidencePerPhase,
    phases,
    artifacts,
    proposals,
    workers,
    workerById,
    hazards: spec.hazards.map((hazard) => hazard.fact),
    fixProbability: author.fixProbability * level.fixScale * (spec.fixScale ?? 1),
    breakProbability: Math.min(1, author.breakProbability * level.breakScale * (spec.breakScale ?? 1)),
    carefulMiss: level.carefulMiss,
    hidden,
  }
}

function drawHidden(context: {
  options: DrawScenarioOptions
  spec: FamilySpec
  workers: readonly WorkerV2[]
  phase1Slots: Record<string, string>
}): HiddenTruth {
  const { options, spec } = context
  const level = difficultyLevels[options.difficulty]
  const rng = hiddenStream
  rng.seed(streamSeed(options.seed, options.attempt, 1))
  const facts = cleanReleaseFacts()
  for (const hazard of spec.hazards) {
    const chance = (hazard.tier === 'primary' ? level.primaryBad : level.secondaryBad) * (spec.badScale ?? 1)
    if (rng.random() < chance) facts[hazard.fact] = badValue[hazard.fact]
  }
  const fixRolls = [rollsFor(ruleIds, rng), rollsFor(ruleIds, rng)]
  const breakRolls = [rollsFor(factKeys, rng), rollsFor(factKeys, rng)]
  const missRolls = [0, 1, 2].map(() => context.workers.map(() => rng.random()))
  const staleArtifacts: string[] = []
  if (spec.staleOneOf) staleArtifacts.push(context.phase1Slots[rng.choice(spec.staleOneOf)] as string)
  Object.assign(facts, options.factOverrides)
  return { facts, fixRolls, breakRolls, missRolls, staleArtifacts }
}
