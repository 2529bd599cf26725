/**
 * @module envs/releaseops/v3: builds a v3 scenario (v2's draw with v3's families and evidence table)
 * and proves it winnable by playing the v3 oracle. Every family and difficulty is built so that the
 * oracle wins for any facts (tests check every fact combination), so a redraw never depends on them.
 */
import { ReleaseOpsError } from '../../../core/errors/release-ops-error.js'
import type { OracleProof } from '../arena/build-scenario.js'
import type { Difficulty } from '../arena/difficulty.js'
import { drawScenario } from '../arena/draw-scenario.js'
import type { FamilyV2 } from '../arena/families/index.js'
import type { Scenario } from '../arena/scenario.js'
import { ScenarioRandom } from '../arena/scenario-random.js'
import type { ReleaseFacts } from '../shared/safety-rules.js'
import { applyCallV3 } from './apply-call.js'
import { evidencePerPhaseV3 } from './difficulty.js'
import { EpisodeV3 } from './episode.js'
import { type FamilyV3, familySpecV3 } from './families/index.js'
import { oracleNextCallV3 } from './oracle-plan.js'
import { withPartialReruns } from './partial-rerun.js'

export interface BuildScenarioV3Options {
  family: FamilyV3
  seed: number
  difficulty: Difficulty
  archetypeMix: string
  factOverrides?: Partial<ReleaseFacts>
  /** The streams every attempt re-seeds (an env passes its own); a fresh pair when absent. */
  random?: ScenarioRandom
}

export interface ProvenScenarioV3 {
  scenario: Scenario
  oracle: OracleProof
}

const maxGenerationAttempts = 8
const proofStepLimit = 64

export function playOracleV3(scenario: Scenario): OracleProof {
  const episode = new EpisodeV3(scenario)
  let steps = 0
  for (; steps < proofStepLimit; steps++) {
    const call = oracleNextCallV3(episode)
    if (call === null) break
    const outcome = applyCallV3(episode, call.name, call.arguments as Record<string, string>)
    if ('error' in outcome) episode.invalidAction()
  }
  return { terminalReason: episode.terminalReason, reward: episode.reward, steps }
}

/** One draw: v2's generator with the v3 family spec and evidence table, and partial re-runs where the author links them. */
function drawScenarioV3(options: BuildScenarioV3Options & { attempt: number }): Scenario {
  const drawn = drawScenario({ ...options, family: options.family as FamilyV2, spec: familySpecV3(options.family) })
  return withPartialReruns({
    ...drawn,
    family: options.family as FamilyV2,
    evidencePerPhase: evidencePerPhaseV3[options.difficulty],
  })
}

export function buildScenarioV3(options: BuildScenarioV3Options): ProvenScenarioV3 {
  const { random = new ScenarioRandom(), ...request } = options
  for (let attempt = 0; attempt < maxGenerationAttempts; attempt++) {
    const scenario = drawScenarioV3({ ...request, attempt, random })
    const oracle = playOracleV3(scenario)
    if (oracle.terminalReason === 'safe_ship') return { scenario, oracle }
  }
  throw new ReleaseOpsError({
    code: 'unwinnable_scenario',
    message: `No winnable draw for ${options.family} seed ${options.seed} (${options.difficulty}) in ${maxGenerationAttempts} attempts.`,
    details: { ...request },
  })
}
