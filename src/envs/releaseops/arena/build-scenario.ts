/**
 * @module envs/releaseops/arena: builds a scenario and proves it winnable. The oracle plays a fresh
 * episode of every draw; a draw it cannot win is redrawn from the next sub-seed (attempt 1, 2, …).
 * The plan wins whenever a ship exists and one hold fits the deadline, which every family and
 * difficulty guarantee for any facts, so the proof never depends on the facts and the redraw can
 * leak nothing about them (the counterfactual-twin test checks exactly this).
 */
import { ReleaseOpsError } from '../../../core/errors/release-ops-error.js'
import type { ReleaseFacts } from '../shared/safety-rules.js'
import { applyCall } from './apply-call.js'
import type { Difficulty } from './difficulty.js'
import { drawScenario } from './draw-scenario.js'
import { ArenaEpisode } from './episode.js'
import type { FamilyV2 } from './families/index.js'
import { oracleNextCall } from './oracle-plan.js'
import type { Scenario } from './scenario.js'
import type { DrawScenarioOptions } from './scenario-draft.js'
import { ScenarioRandom } from './scenario-random.js'

export interface BuildScenarioV2Options {
  family: FamilyV2
  seed: number
  difficulty: Difficulty
  archetypeMix: string
  factOverrides?: Partial<ReleaseFacts>
  /** The streams every attempt re-seeds (an env passes its own); a fresh pair when absent. */
  random?: ScenarioRandom
}

export interface OracleProof {
  terminalReason: string | null
  reward: number
  steps: number
}

export interface ProvenScenario {
  scenario: Scenario
  /** The oracle's episode reward: the most any policy can score on this scenario. */
  oracle: OracleProof
}

const maxGenerationAttempts = 8
const proofStepLimit = 64

/** Plays the oracle on a fresh episode of `scenario`. */
export function playOracle(scenario: Scenario): OracleProof {
  const episode = new ArenaEpisode(scenario)
  let steps = 0
  for (; steps < proofStepLimit; steps++) {
    const call = oracleNextCall(episode)
    if (call === null) break
    const outcome = applyCall(episode, call.name, call.arguments as Record<string, string>)
    if ('error' in outcome) episode.invalidAction()
  }
  return { terminalReason: episode.terminalReason, reward: episode.reward, steps }
}

export function buildScenarioV2(
  options: BuildScenarioV2Options,
  draw: (options: DrawScenarioOptions) => Scenario = drawScenario,
): ProvenScenario {
  const { random = new ScenarioRandom(), ...request } = options
  for (let attempt = 0; attempt < maxGenerationAttempts; attempt++) {
    const scenario = draw({ ...request, attempt, random })
    const oracle = playOracle(scenario)
    if (oracle.terminalReason === 'safe_ship') return { scenario, oracle }
  }
  throw new ReleaseOpsError({
    code: 'unwinnable_scenario',
    message: `No winnable draw for ${options.family} seed ${options.seed} (${options.difficulty}) in ${maxGenerationAttempts} attempts.`,
    details: { ...request },
  })
}
