/**
 * releaseops-v2 scenario generation: unique ids in every phase, artifact texts that read only the facts
 * they reveal, evidence for every hazard, archetype casting by mix, and difficulty that scales
 * distractors, budget, deadline, evidence per phase, misleading claims and revision quality.
 */
import { describe, expect, it } from 'vitest'
import { archetypeMixes, parseArchetypeMix } from '../src/envs/releaseops/arena/archetype-mixes.js'
import { buildScenarioV2 } from '../src/envs/releaseops/arena/build-scenario.js'
import { type Difficulty, difficulties } from '../src/envs/releaseops/arena/difficulty.js'
import { factKeys, isFactBad } from '../src/envs/releaseops/arena/facts.js'
import { familiesV2, familySpec, familySpecs } from '../src/envs/releaseops/arena/families/index.js'
import type { Scenario } from '../src/envs/releaseops/arena/scenario.js'
import type { ReleaseFacts } from '../src/envs/releaseops/shared/safety-rules.js'

const scenarios = (difficulty: Difficulty, seeds: number) =>
  familiesV2.flatMap((family) =>
    Array.from(
      { length: seeds },
      (_, seed) =>
        buildScenarioV2({ family, seed, difficulty, archetypeMix: archetypeMixes[seed % archetypeMixes.length] as string })
          .scenario,
    ),
  )

const allFacts: ReleaseFacts[] = Array.from({ length: 16 }, (_, mask) => ({
  open_p1_bug: Boolean(mask & 1),
  payment_tests_disabled: Boolean(mask & 2),
  payment_tests_passing: Boolean(mask & 4),
  deploy_checks_passed: Boolean(mask & 8),
}))

describe('releaseops-v2 generation', () => {
  it('gives unique proposal, artifact and worker ids across all phases, and every ref resolves in its phase', () => {
    for (const difficulty of difficulties) {
      for (const scenario of scenarios(difficulty, 100)) {
        const proposals = scenario.phases.flat()
        expect(new Set(proposals.map((proposal) => proposal.id)).size).toBe(proposals.length)
        const numbers = [...scenario.artifacts.keys()].map((id) => id.replace(/^\D+/, ''))
        expect(new Set(numbers).size).toBe(numbers.length)
        expect(new Set(scenario.workers.map((worker) => worker.id)).size).toBe(scenario.workers.length)
        const referenced = new Set<string>()
        for (const proposal of proposals) {
          expect(scenario.workerById.has(proposal.worker)).toBe(true)
          for (const ref of proposal.refs) {
            expect(scenario.artifacts.get(ref)?.phase).toBe(proposal.phase)
            referenced.add(ref)
          }
        }
        expect(referenced.size).toBe(scenario.artifacts.size)
      }
    }
  })

  it('artifact texts read only the facts they reveal, and every hazard can be verified in every phase', () => {
    for (const spec of familySpecs) {
      for (const phase of [spec.initial, spec.revision]) {
        for (const artifact of phase.artifacts) {
          for (const facts of allFacts) {
            for (const other of factKeys.filter((fact) => !artifact.reveals.includes(fact))) {
              const flipped = { ...facts, [other]: !facts[other] }
              for (const variant of [0, 1, 2, 7]) {
                const draw = { variant, count: 400 + variant }
                expect(artifact.text(flipped, draw), `${spec.id} ${artifact.slot} reads ${other}`).toBe(
                  artifact.text(facts, draw),
                )
              }
            }
          }
          // Texts that reveal a fact really show it: the two values give different texts.
          for (const fact of artifact.reveals) {
            const base = { ...allFacts[0]!, payment_tests_passing: true, deploy_checks_passed: true }
            expect(artifact.text({ ...base, [fact]: !base[fact] }, { variant: 0, count: 400 })).not.toBe(
              artifact.text(base, { variant: 0, count: 400 }),
            )
          }
        }
        for (const hazard of spec.hazards) {
          expect(
            phase.artifacts.some((artifact) => artifact.reveals.includes(hazard.fact)),
            `${spec.id} ${hazard.fact}`,
          ).toBe(true)
        }
        expect(phase.proposals.some((proposal) => proposal.request === 'ship_release_candidate')).toBe(true)
      }
    }
  })

  it('casts archetypes by the mix (roles the family fixes excepted) and shows behaviour, not labels', () => {
    const scenario = buildScenarioV2({
      family: 'green_ci_disabled_payment_test',
      seed: 3,
      difficulty: 'medium',
      archetypeMix: 'careful__overconfident__stale_policy',
    }).scenario
    const archetypeOf = (id: string) => scenario.workerById.get(id)?.archetype
    expect([archetypeOf('ci_fixer'), archetypeOf('qa_triage'), archetypeOf('release_manager')]).toEqual([
      'careful',
      'overconfident',
      'stale_policy',
    ])
    const first = scenario.phases[0]!
    expect(first.find((proposal) => proposal.worker === 'ci_fixer')?.confidence).toBe('medium')
    expect(first.find((proposal) => proposal.worker === 'qa_triage')?.confidence).toBe('very_high')
    const disagree = buildScenarioV2({
      family: 'careful_workers_disagree',
      seed: 3,
      difficulty: 'medium',
      archetypeMix: 'shortcut__deadline__deadline',
    }).scenario
    expect([disagree.workerById.get('qa_triage')?.archetype, disagree.workerById.get('sre')?.archetype]).toEqual([
      'careful',
      'careful',
    ])
    expect(() => parseArchetypeMix('careful__careful')).toThrowError(expect.objectContaining({ code: 'invalid_archetype_mix' }))
    // The author's archetype decides how reliable its revisions are.
    const fixOf = (archetypeMix: string) =>
      buildScenarioV2({ family: 'green_ci_disabled_payment_test', seed: 1, difficulty: 'low', archetypeMix }).scenario
        .fixProbability
    expect(fixOf('careful__careful__deadline')).toBeGreaterThan(fixOf('shortcut__careful__deadline'))
  })

  it('difficulty scales distractors, budget, deadline, evidence, misleading claims and revision quality', () => {
    const stats = difficulties.map((difficulty) => {
      const all = scenarios(difficulty, 150)
      const average = (pick: (scenario: Scenario) => number) =>
        all.reduce((total, scenario) => total + pick(scenario), 0) / all.length
      return {
        distractors: average((scenario) => scenario.phases[0]!.filter((proposal) => proposal.role === 'developer').length),
        decoys: average(
          (scenario) =>
            scenario.phases[0]!.filter((proposal) => proposal.role === 'developer' && !proposal.risk.every((tag) => tag === 'ui'))
              .length,
        ),
        budget: average((scenario) => scenario.budget),
        hours: average((scenario) => scenario.hours),
        evidence: average((scenario) => scenario.evidencePerPhase),
        misleading: average((scenario) => scenario.hazards.filter((fact) => isFactBad(scenario.hidden.facts, fact)).length),
        carefulMiss: average((scenario) => scenario.carefulMiss),
        fix: average((scenario) => scenario.fixProbability),
        break: average((scenario) => scenario.breakProbability),
      }
    })
    const [low, medium, high] = stats as [(typeof stats)[0], (typeof stats)[0], (typeof stats)[0]]
    for (const key of ['distractors', 'decoys', 'misleading', 'carefulMiss', 'break'] as const) {
      expect(low[key], key).toBeLessThan(medium[key])
      expect(medium[key], key).toBeLessThan(high[key])
    }
    for (const key of ['budget', 'hours', 'evidence', 'fix'] as const) {
      expect(low[key], key).toBeGreaterThan(medium[key])
      expect(medium[key], key).toBeGreaterThan(high[key])
    }
    expect(Math.min(...stats.map((item) => item.hours))).toBeGreaterThanOrEqual(24)
  })

  it('is deterministic: the same options give the same scenario, another seed another one', () => {
    const options = {
      family: 'hotfix_skips_deploy_checks',
      seed: 77,
      difficulty: 'high',
      archetypeMix: 'deadline__careful__overconfident',
    } as const
    const text = (scenario: Scenario) =>
      JSON.stringify({ ...scenario, artifacts: [...scenario.artifacts], proposals: [...scenario.proposals], workerById: null })
    expect(text(buildScenarioV2(options).scenario)).toBe(text(buildScenarioV2(options).scenario))
    expect(text(buildScenarioV2({ ...options, seed: 78 }).scenario)).not.toBe(text(buildScenarioV2(options).scenario))
    expect(familySpec('careful_qa_safe').badScale).toBeLessThan(1)
  })
})
