/**
 * @module envs/releaseops/arena: one attempt at a scenario, drawn in named steps. The visible steps run in
 * a fixed order on one draft and draw only from its visible stream; the hidden truth comes last from the
 * hidden stream (see `scenario-random.ts`). Each step reads and writes only its own draft.
 */
import type { PythonRandom } from '../../../core/python/python-random.js'
import { cleanReleaseFacts, ruleIds } from '../shared/safety-rules.js'
import { distractorClaims, distractorTicketText } from '../v1/texts.js'
import { archetypeBehaviours, developerRecord } from './archetypes.js'
import { badValue, factKeys } from './facts.js'
import type { ArtifactTemplate, PhaseTemplate } from './family-spec.js'
import type { HiddenTruth, Proposal, Scenario } from './scenario.js'
import { type DrawScenarioOptions, ScenarioDraft } from './scenario-draft.js'

const phaseCount = 3

const distractorTicket: ArtifactTemplate = { slot: 'ticket', kind: 'ticket', reveals: [], text: () => distractorTicketText }
const decoys = [
  { claim: 'Updated the payment page copy and button colours.', risk: ['payments', 'ui'] },
  { claim: 'Tweaked the checkout progress bar animation.', risk: ['checkout', 'ui'] },
  { claim: 'Renamed panels on the deploy dashboard.', risk: ['deploy', 'ui'] },
] as const

/** The deadline and the review budget. */
export function drawSchedule(draft: ScenarioDraft): void {
  draft.hours = draft.visible.choice(draft.level.hours)
  draft.budget = draft.visible.randint(draft.level.budget[0], draft.level.budget[1])
}

/** The next phase: its artifacts, the family's proposals, the distractors, all in one shuffled view order. */
export function drawNextPhase(draft: ScenarioDraft): void {
  const phase = draft.phases.length + 1
  const template: PhaseTemplate = phase === 1 ? draft.spec.initial : draft.spec.revision
  const slots: Record<string, string> = {}
  for (const artifact of template.artifacts) slots[artifact.slot] = draft.addArtifact(artifact, phase)
  const list = [...familyProposals({ draft, template, slots, phase }), ...distractorProposals(draft, phase)]
  draft.visible.shuffle(list)
  for (const proposal of list) draft.proposals.set(proposal.id, proposal)
  draft.phases.push(list)
  draft.phaseSlots.push(slots)
}

function familyProposals(context: {
  draft: ScenarioDraft
  template: PhaseTemplate
  slots: Record<string, string>
  phase: number
}): Proposal[] {
  const { draft, slots, phase } = context
  return context.template.proposals.map((item) => {
    const archetype = draft.cast[item.role]
    const behaviour = archetypeBehaviours[archetype]
    const worker = draft.spec.workers[item.role]
    draft.addWorker(worker, item.role, archetype)
    return {
      id: draft.nextProposalId(),
      worker,
      claim: `${draft.visible.choice(item.claims)} ${draft.visible.choice(behaviour.claimTones)}`,
      request: item.request,
      refs: item.refs.map((slot) => slots[slot] as string),
      risk: item.risk,
      confidence: behaviour.confidence,
      claims: item.stance,
      phase,
      role: item.role,
      covers: item.covers === 'all' ? factKeys : item.covers,
    }
  })
}

/** Developers' triage requests that matter to no rule; some are decoys that name a risky area. */
function distractorProposals(draft: ScenarioDraft, phase: number): Proposal[] {
  const { level, visible } = draft
  const range = phase === 1 ? level.distractors : level.laterDistractors
  const count = visible.randint(range[0], range[1])
  const decoyCount = Math.min(count, visible.randint(level.decoys[0], level.decoys[1]))
  const list: Proposal[] = []
  for (let index = 0; index < count; index++) {
    const worker = draft.nextDeveloperId()
    draft.addWorker(worker, 'developer', 'developer')
    const ticket = draft.addArtifact(distractorTicket, phase)
    const decoy = index < decoyCount ? visible.choice(decoys) : undefined
    list.push({
      id: draft.nextProposalId(),
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
  return list
}

/** Every worker's recent record (in creation order), then the `worker_stats` order. */
export function drawTrackRecords(draft: ScenarioDraft): void {
  const { visible } = draft
  for (const worker of draft.workersByOrdinal) {
    const record = worker.archetype === 'developer' ? developerRecord : archetypeBehaviours[worker.archetype]
    worker.recent = {
      correct: visible.randint(record.correct[0], record.correct[1]),
      incorrect: visible.randint(record.incorrect[0], record.incorrect[1]),
    }
  }
  const workers = draft.workersByOrdinal.slice()
  visible.shuffle(workers)
  draft.workers = workers
}

/** The visible steps of a draw, in order. */
export const visibleDrawSteps: readonly ((draft: ScenarioDraft) => void)[] = [
  drawSchedule,
  ...Array.from({ length: phaseCount }, () => drawNextPhase),
  drawTrackRecords,
]

/** The facts, the rolls that decide revisions and careful misses, and the stale artifact, from the hidden stream. */
export function drawHiddenTruth(draft: ScenarioDraft): HiddenTruth {
  const { spec, level, hidden: rng } = draft
  const facts = cleanReleaseFacts()
  for (const hazard of spec.hazards) {
    const chance = (hazard.tier === 'primary' ? level.primaryBad : level.secondaryBad) * (spec.badScale ?? 1)
    if (rng.random() < chance) facts[hazard.fact] = badValue[hazard.fact]
  }
  const fixRolls = [rollsFor(ruleIds, rng), rollsFor(ruleIds, rng)]
  const breakRolls = [rollsFor(factKeys, rng), rollsFor(factKeys, rng)]
  const missRolls = [0, 1, 2].map(() => draft.workersByOrdinal.map(() => rng.random()))
  const staleArtifacts: string[] = []
  if (spec.staleOneOf) staleArtifacts.push((draft.phaseSlots[0] as Record<string, string>)[rng.choice(spec.staleOneOf)] as string)
  Object.assign(facts, draft.options.factOverrides)
  return { facts, fixRolls, breakRolls, missRolls, staleArtifacts }
}

function rollsFor<K extends string>(keys: readonly K[], rng: PythonRandom): Record<K, number> {
  const rolls = {} as Record<K, number>
  for (const key of keys) rolls[key] = rng.random()
  return rolls
}

export function drawScenario(options: DrawScenarioOptions): Scenario {
  const draft = new ScenarioDraft(options)
  for (const step of visibleDrawSteps) step(draft)
  return draft.toScenario(drawHiddenTruth(draft))
}
