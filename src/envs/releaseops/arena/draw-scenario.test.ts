import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { archetypeMixes } from './archetype-mixes.js'
import { archetypeBehaviours, developerRecord } from './archetypes.js'
import { difficulties, difficultyLevels } from './difficulty.js'
import {
  drawHiddenTruth,
  drawNextPhase,
  drawScenario,
  drawSchedule,
  drawTrackRecords,
  visibleDrawSteps,
} from './draw-scenario.js'
import { familiesV2, familySpec } from './families/index.js'
import type { Scenario } from './scenario.js'
import { type DrawScenarioOptions, ScenarioDraft } from './scenario-draft.js'
import { ScenarioRandom } from './scenario-random.js'

/** Everything a scenario holds, as text (maps as entries; template functions are the family's own). */
const fingerprint = (scenario: Scenario) =>
  JSON.stringify(scenario, (_key, value) => (value instanceof Map ? [...value.entries()] : value))

const request: fc.Arbitrary<DrawScenarioOptions> = fc.record({
  family: fc.constantFrom(...familiesV2),
  // Negative and past 2^32 too: the stream seed then takes CPython's multi-word path.
  seed: fc.oneof(fc.integer(), fc.maxSafeInteger()),
  difficulty: fc.constantFrom(...difficulties),
  archetypeMix: fc.constantFrom(...archetypeMixes),
  attempt: fc.integer({ min: 0, max: 7 }),
})

/** One draw as its steps on its own draft, the last one finishing the scenario. */
function stepsOf(options: DrawScenarioOptions, finished: (scenario: Scenario) => void): (() => void)[] {
  const draft = new ScenarioDraft(options)
  return [...visibleDrawSteps.map((step) => () => step(draft)), () => finished(draft.toScenario(drawHiddenTruth(draft)))]
}

/** Runs two step lists, taking the next step from the first list where `schedule` says so. */
function interleave(first: (() => void)[], second: (() => void)[], schedule: readonly boolean[]): void {
  let turn = 0
  while (first.length > 0 || second.length > 0) {
    const fromFirst = second.length === 0 || (first.length > 0 && (schedule[turn++ % schedule.length] ?? true))
    ;(fromFirst ? first : second).shift()?.()
  }
}

const base: DrawScenarioOptions = {
  family: 'careful_workers_disagree',
  seed: 11,
  difficulty: 'high',
  archetypeMix: 'careful__careful__overconfident',
  attempt: 0,
}

describe('drawing a scenario in steps', () => {
  it('draws the same scenario with a fresh pair of streams, a reused one, or one an env keeps', () => {
    const random = new ScenarioRandom()
    drawScenario({ ...base, seed: 99, random })
    expect(fingerprint(drawScenario({ ...base, random }))).toBe(fingerprint(drawScenario(base)))
  })

  it('interleaves two draws step by step and gets the scenarios each gives alone', () => {
    fc.assert(
      fc.property(request, request, fc.array(fc.boolean(), { minLength: 1, maxLength: 16 }), (a, b, schedule) => {
        const results: Scenario[] = []
        interleave(
          stepsOf({ ...a, random: new ScenarioRandom() }, (scenario) => (results[0] = scenario)),
          stepsOf({ ...b, random: new ScenarioRandom() }, (scenario) => (results[1] = scenario)),
          schedule,
        )
        expect(results.map(fingerprint)).toEqual([fingerprint(drawScenario(a)), fingerprint(drawScenario(b))])
      }),
      { numRuns: 200 },
    )
  })

  it('interleaves two draws across awaits, in any order the scheduler picks', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), request, request, async (scheduler, a, b) => {
        const drawAsync = async (options: DrawScenarioOptions) => {
          const draft = new ScenarioDraft(options)
          for (const step of visibleDrawSteps) {
            await scheduler.schedule(Promise.resolve(), `${options.seed} ${step.name}`)
            step(draft)
          }
          await scheduler.schedule(Promise.resolve(), `${options.seed} hidden`)
          return draft.toScenario(drawHiddenTruth(draft))
        }
        const both = Promise.all([
          drawAsync({ ...a, random: new ScenarioRandom() }),
          drawAsync({ ...b, random: new ScenarioRandom() }),
        ])
        await scheduler.waitAll()
        expect((await both).map(fingerprint)).toEqual([fingerprint(drawScenario(a)), fingerprint(drawScenario(b))])
      }),
      { numRuns: 100 },
    )
  })

  it('would catch two drafts sharing one pair of streams (why each env owns its own)', () => {
    const shared = new ScenarioRandom()
    const other = { ...base, seed: 12 }
    const results: Scenario[] = []
    interleave(
      stepsOf({ ...base, random: shared }, (scenario) => (results[0] = scenario)),
      stepsOf({ ...other, random: shared }, (scenario) => (results[1] = scenario)),
      [true, false],
    )
    expect(fingerprint(results[0] as Scenario)).not.toBe(fingerprint(drawScenario(base)))
  })
})

describe('the steps, one at a time', () => {
  const level = difficultyLevels[base.difficulty]

  it('drawSchedule draws the deadline and the budget from the level, on the visible stream only', () => {
    const draft = new ScenarioDraft(base)
    drawSchedule(draft)
    expect(level.hours).toContain(draft.hours)
    expect(draft.budget).toBeGreaterThanOrEqual(level.budget[0])
    expect(draft.budget).toBeLessThanOrEqual(level.budget[1])
    const untouched = new ScenarioRandom()
    untouched.reseed(base.seed, base.attempt)
    expect(draft.hidden.random()).toBe(untouched.hidden.random())
  })

  it('drawNextPhase adds one phase: the family proposals, the distractors and the artifacts they cite', () => {
    const draft = new ScenarioDraft(base)
    drawSchedule(draft)
    drawNextPhase(draft)
    drawNextPhase(draft)
    const [first = [], second = []] = draft.phases
    const spec = familySpec(base.family)
    for (const [index, phase] of [first, second].entries()) {
      const template = index === 0 ? spec.initial : spec.revision
      const range = index === 0 ? level.distractors : level.laterDistractors
      const distractors = phase.filter((proposal) => proposal.role === 'developer').length
      expect(phase.length - distractors).toBe(template.proposals.length)
      expect(distractors).toBeGreaterThanOrEqual(range[0])
      expect(distractors).toBeLessThanOrEqual(range[1])
      for (const proposal of phase) {
        expect(proposal.phase).toBe(index + 1)
        for (const ref of proposal.refs) expect(draft.artifacts.get(ref)?.phase).toBe(index + 1)
      }
    }
    expect(draft.proposals.size).toBe(first.length + second.length)
    expect(draft.phaseSlots.map((slots) => Object.keys(slots).sort())).toEqual([
      spec.initial.artifacts.map((artifact) => artifact.slot).sort(),
      spec.revision.artifacts.map((artifact) => artifact.slot).sort(),
    ])
  })

  it('drawTrackRecords gives every worker a record in its range and a view order of all of them', () => {
    const draft = new ScenarioDraft(base)
    for (const step of visibleDrawSteps.slice(0, -1)) step(draft)
    expect(draft.workers).toEqual([])
    drawTrackRecords(draft)
    for (const worker of draft.workersByOrdinal) {
      const record = worker.archetype === 'developer' ? developerRecord : archetypeBehaviours[worker.archetype]
      expect(worker.recent.correct).toBeGreaterThanOrEqual(record.correct[0])
      expect(worker.recent.correct).toBeLessThanOrEqual(record.correct[1])
      expect(worker.recent.incorrect).toBeGreaterThanOrEqual(record.incorrect[0])
      expect(worker.recent.incorrect).toBeLessThanOrEqual(record.incorrect[1])
    }
    expect([...draft.workers].sort((a, b) => a.ordinal - b.ordinal)).toEqual(draft.workersByOrdinal)
  })

  it('drawHiddenTruth rolls for every worker and phase, applies overrides last, and leaves the visible stream alone', () => {
    const draws = (options: { factOverrides?: DrawScenarioOptions['factOverrides']; drawHidden?: boolean } = {}) => {
      const draft = new ScenarioDraft({ ...base, ...(options.factOverrides ? { factOverrides: options.factOverrides } : {}) })
      for (const step of visibleDrawSteps) step(draft)
      const hidden = options.drawHidden === false ? undefined : drawHiddenTruth(draft)
      return { draft, hidden: hidden as ReturnType<typeof drawHiddenTruth>, nextVisible: draft.visible.random() }
    }
    const plain = draws()
    const overridden = draws({ factOverrides: { open_p1_bug: true, deploy_checks_passed: false } })
    expect(plain.hidden.missRolls).toHaveLength(3)
    for (const row of plain.hidden.missRolls) expect(row).toHaveLength(plain.draft.workersByOrdinal.length)
    expect(overridden.hidden.facts).toMatchObject({ open_p1_bug: true, deploy_checks_passed: false })
    expect(overridden.hidden.fixRolls).toEqual(plain.hidden.fixRolls)
    expect(overridden.nextVisible).toBe(plain.nextVisible)
    expect(draws({ drawHidden: false }).nextVisible).toBe(plain.nextVisible)
  })
})
