/**
 * The counterfactual-twins leak test shared by releaseops-v2 (issue 3, "must show") and releaseops-v3
 * (issue 14). The same seed is built twice, the second time with one hidden fact flipped and nothing
 * else. Along random action sequences both twins must give byte-identical observations, tool results
 * (worker answers included) and rendered text until an action that is allowed to reveal that fact:
 * inspecting an artifact that shows it, or asking a careful worker whose evidence shows it about
 * evidence or risk (both cost an evidence action); a version may name more reveals (v3: joint pairs).
 * Terminal outcomes may differ. Run over every family, difficulty, several mixes and many seeds.
 */
import { describe, expect, it } from 'vitest'
import type { Env, StepResult, ToolCall } from '../../src/core/env/env-api.js'
import { PythonRandom } from '../../src/core/python/python-random.js'
import { CallSampler } from '../../src/core/testing/call-sampler.js'
import { difficulties } from '../../src/envs/releaseops/arena/difficulty.js'
import type { ArenaEpisode } from '../../src/envs/releaseops/arena/episode.js'
import type { FactKey } from '../../src/envs/releaseops/arena/facts.js'
import type { ReleaseOpsObservation } from '../../src/envs/releaseops/arena/releaseops-env-base.js'
import { type Artifact, artifactReveals, type Scenario } from '../../src/envs/releaseops/arena/scenario.js'
import { holdReasons, questionTypes } from '../../src/envs/releaseops/shared/constants.js'
import { acceptedRuleIds, type ReleaseFacts } from '../../src/envs/releaseops/shared/safety-rules.js'
import type { VersionUnderTest } from './version-under-test.js'

type TwinEnv = Env<ReleaseOpsObservation> & { privilegedEpisode(): ArenaEpisode | undefined }

export interface TwinsSpec<F extends string = string> extends VersionUnderTest<F> {
  /** A fresh env; with overrides, one whose every scenario has those facts flipped. */
  newEnv: (factOverrides?: Partial<ReleaseFacts>) => TwinEnv
  /** Reveals beyond v2's: whether inspecting `artifact` may also show `fact`. */
  alsoReveals?: (artifact: Artifact, fact: FactKey) => boolean
}

const evidenceTools = ['inspect_pr_diff', 'inspect_ci_run', 'inspect_ticket'] as const
const toolOfPrefix = (ref: string) =>
  ref.startsWith('pr_') ? 'inspect_pr_diff' : ref.startsWith('ci_run_') ? 'inspect_ci_run' : 'inspect_ticket'
const argumentOf = { inspect_pr_diff: 'pr_id', inspect_ci_run: 'run_id', inspect_ticket: 'ticket_id' } as const

/** A random but mostly meaningful call, read from the observation (ids of this and earlier phases). */
function randomCall(rng: PythonRandom, observation: ReleaseOpsObservation, seenRefs: string[], sampler: CallSampler): ToolCall {
  const proposals = observation.view.proposals
  const roll = rng.random()
  if (roll < 0.3) {
    const ref = rng.random() < 0.8 && proposals.length > 0 ? rng.choice(rng.choice(proposals).refs) : rng.choice(seenRefs)
    const tool = rng.random() < 0.85 ? toolOfPrefix(ref) : rng.choice(evidenceTools)
    return { name: tool, arguments: { [argumentOf[tool]]: ref } }
  }
  if (roll < 0.5) {
    const worker = rng.random() < 0.9 ? rng.choice(proposals).worker : rng.choice(observation.view.worker_stats).worker
    return { name: 'ask_worker', arguments: { worker_id: worker, question_type: rng.choice(questionTypes) } }
  }
  if (roll < 0.68) return { name: 'approve_proposal', arguments: { proposal_id: rng.choice(proposals).id } }
  if (roll < 0.84) {
    return { name: 'block_proposal', arguments: { proposal_id: rng.choice(proposals).id, rule_id: rng.choice(acceptedRuleIds) } }
  }
  if (roll < 0.92) return { name: 'hold_release', arguments: { reason_code: rng.choice(holdReasons) } }
  return sampler.malformed(observation)
}

/** Whether `call` is an action allowed to reveal `fact` in the current state of `env` (the unflipped twin). */
function mayReveal(options: {
  env: TwinEnv
  scenario: Scenario
  call: ToolCall
  fact: FactKey
  alsoReveals?: TwinsSpec['alsoReveals'] | undefined
}): boolean {
  const { env, scenario, call, fact, alsoReveals } = options
  const args = (call.arguments ?? {}) as Record<string, unknown>
  if (typeof call.name !== 'string') return false
  if (call.name in argumentOf) {
    const artifact = scenario.artifacts.get(String(args[argumentOf[call.name as keyof typeof argumentOf]]))
    if (artifact !== undefined && alsoReveals?.(artifact, fact)) return true
    return artifact !== undefined && artifactReveals(scenario, artifact).includes(fact)
  }
  if (call.name === 'ask_worker') {
    const worker = scenario.workerById.get(String(args.worker_id))
    if (worker?.archetype !== 'careful') return false
    if (args.question_type !== 'evidence_basis' && args.question_type !== 'risk_summary') return false
    const proposal = env.privilegedEpisode()?.activeProposals.find((item) => item.worker === worker.id)
    return (proposal?.refs ?? []).some((ref) => {
      const artifact = scenario.artifacts.get(ref)
      return artifact !== undefined && artifactReveals(scenario, artifact).includes(fact)
    })
  }
  return false
}

function withoutOutcome(result: StepResult<ReleaseOpsObservation>): string {
  const observation = structuredClone(result.observation)
  if (observation.result) delete observation.result.episode_end_reason
  return JSON.stringify(observation)
}

/** Both leak tests: v2's and v3's test files call this with their env. */
export function describeCounterfactualTwins<F extends string>(spec: TwinsSpec<F>): void {
  const { families, archetypeMixes, buildScenario } = spec
  describe(`${spec.envId} counterfactual twins`, () => {
    it('flipping a fact changes nothing visible in the scenario (ids, texts, order, numbers, attempt)', () => {
      let pairs = 0
      for (const family of families) {
        for (const difficulty of difficulties) {
          for (let seed = 0; seed < 40; seed++) {
            const archetypeMix = archetypeMixes[seed % archetypeMixes.length] as string
            const base = buildScenario({ family, seed, difficulty, archetypeMix }).scenario
            for (const fact of base.hazards) {
              const twin = buildScenario({
                family,
                seed,
                difficulty,
                archetypeMix,
                factOverrides: { [fact]: !base.hidden.facts[fact] },
              }).scenario
              expect(twin.hidden.facts[fact]).toBe(!base.hidden.facts[fact])
              const visible = (scenario: Scenario) =>
                JSON.stringify({
                  attempt: scenario.attempt,
                  hours: scenario.hours,
                  budget: scenario.budget,
                  evidence: scenario.evidencePerPhase,
                  phases: scenario.phases,
                  artifacts: [...scenario.artifacts.values()].map(({ id, kind, phase, draw }) => ({ id, kind, phase, draw })),
                  workers: scenario.workers,
                })
              expect(visible(twin)).toBe(visible(base))
              pairs++
            }
          }
        }
      }
      expect(pairs).toBeGreaterThan(1500)
    })

    it('observations, results, answers and renders stay byte-identical until an allowed reveal', () => {
      let compared = 0
      let boundaries = 0
      let boundariesThatDiffer = 0
      const differingFamilies = new Set<string>()
      for (const family of families) {
        for (const difficulty of difficulties) {
          for (let seed = 1000; seed < 1012; seed++) {
            const archetypeMix = archetypeMixes[seed % archetypeMixes.length] as string
            const base = buildScenario({ family, seed, difficulty, archetypeMix }).scenario
            for (const fact of base.hazards) {
              const flipped = { [fact]: !base.hidden.facts[fact] }
              const original = spec.newEnv()
              const twin = spec.newEnv(flipped)
              for (let sequence = 0; sequence < 3; sequence++) {
                const rng = new PythonRandom(seed * 7919 + sequence * 31 + difficulties.indexOf(difficulty))
                const sampler = new CallSampler(original.spec, rng)
                const reset = { seed, options: { family, difficulty, archetype_mix: archetypeMix } }
                const first = original.reset(reset)
                const second = twin.reset(reset)
                expect(JSON.stringify(second)).toBe(JSON.stringify(first))
                expect(twin.render(second.observation)).toBe(original.render(first.observation))
                let observation = first.observation
                const seenRefs = [...new Set(first.observation.view.proposals.flatMap((proposal) => proposal.refs))]
                for (let step = 0; step < 45; step++) {
                  const call = randomCall(rng, observation, seenRefs, sampler)
                  const revealing = mayReveal({ env: original, scenario: base, call, fact, alsoReveals: spec.alsoReveals })
                  const a = original.step(call)
                  const b = twin.step(call)
                  if (revealing && !a.observation.error) {
                    boundaries++
                    if (original.render(a.observation) !== twin.render(b.observation)) {
                      boundariesThatDiffer++
                      differingFamilies.add(family)
                    }
                    break
                  }
                  const context = { family, difficulty, seed, fact, step, call }
                  if (a.terminated) {
                    expect(withoutOutcome(b), JSON.stringify(context)).toBe(withoutOutcome(a))
                    expect(b.terminated).toBe(true)
                    break
                  }
                  expect(JSON.stringify(b.observation), JSON.stringify(context)).toBe(JSON.stringify(a.observation))
                  expect(twin.render(b.observation)).toBe(original.render(a.observation))
                  expect([b.terminated, b.truncated]).toEqual([a.terminated, a.truncated])
                  compared++
                  if (a.truncated) break
                  observation = a.observation
                  for (const proposal of observation.view.proposals)
                    for (const ref of proposal.refs) if (!seenRefs.includes(ref)) seenRefs.push(ref)
                }
              }
            }
          }
        }
      }
      // The comparison is sensitive: reveals really do show the flipped fact, in every family.
      expect(compared).toBeGreaterThan(10_000)
      expect(boundaries).toBeGreaterThan(500)
      expect(boundariesThatDiffer / boundaries).toBeGreaterThan(0.5)
      expect([...differingFamilies].sort()).toEqual([...families].sort())
    })
  })
}
