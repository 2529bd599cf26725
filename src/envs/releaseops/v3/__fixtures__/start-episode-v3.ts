/** @module envs/releaseops/v3/__fixtures__: starts a v3 episode with chosen facts, for the tests beside the env. */
import type { ReleaseFacts } from '../../shared/safety-rules.js'
import type { FactKey } from '../../v2/facts.js'
import { buildScenarioV3 } from '../build-scenario-v3.js'
import type { FamilyV3 } from '../families/index.js'
import { ReleaseOpsV3Env } from '../releaseops-v3-env.js'

export interface SetupV3 {
  family?: FamilyV3
  seed?: number
  difficulty?: 'low' | 'medium' | 'high'
  mix?: string
  facts?: Partial<ReleaseFacts>
}

export function startEpisodeV3(setup: SetupV3 = {}) {
  const env = new ReleaseOpsV3Env({
    buildScenario: (options) => buildScenarioV3({ ...options, ...(setup.facts ? { factOverrides: setup.facts } : {}) }),
  })
  const reset = env.reset({
    seed: setup.seed ?? 7,
    options: {
      family: setup.family ?? 'green_ci_disabled_payment_test',
      difficulty: setup.difficulty ?? 'low',
      ...(setup.mix ? { archetype_mix: setup.mix } : {}),
    },
  })
  const episode = env.privilegedEpisode()
  if (!episode) throw new Error('no episode')
  const scenario = episode.scenario
  const proposal = (role: string, request?: string, phase = episode.phaseIndex) => {
    const found = scenario.phases[phase - 1]?.find((item) => item.role === role && (request === undefined || item.request === request))
    if (!found) throw new Error(`no ${role} ${request} in phase ${phase}`)
    return found
  }
  const artifactRevealing = (fact: FactKey, phase = episode.phaseIndex) => {
    const found = [...scenario.artifacts.values()].find((item) => item.phase === phase && item.template.reveals.includes(fact))
    if (!found) throw new Error(`no artifact revealing ${fact}`)
    return found
  }
  const artifactInSlot = (slot: string, phase = episode.phaseIndex) => {
    const found = [...scenario.artifacts.values()].find((item) => item.phase === phase && item.template.slot === slot)
    if (!found) throw new Error(`no artifact in slot ${slot}`)
    return found
  }
  return { env, reset, episode, scenario, proposal, artifactRevealing, artifactInSlot }
}

export { approve, ask, block, hold, inspect } from '../../v2/__fixtures__/start-episode.js'
