/** @module envs/releaseops/v3/__fixtures__: starts a v3 episode with chosen facts, for the tests beside the env. */
import type { ReleaseFacts } from '../../shared/safety-rules.js'
import { startOn } from '../../arena/__fixtures__/start-on.js'
import { buildScenarioV3 } from '../build-scenario.js'
import type { FamilyV3 } from '../families/index.js'
import { ReleaseOpsV3Env } from '../releaseops-env.js'

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
  const started = startOn(env, setup)
  const { episode, scenario } = started
  const artifactInSlot = (slot: string, phase = episode.phaseIndex) => {
    const found = [...scenario.artifacts.values()].find((item) => item.phase === phase && item.template.slot === slot)
    if (!found) throw new Error(`no artifact in slot ${slot}`)
    return found
  }
  return { ...started, artifactInSlot }
}

export { approve, ask, block, hold, inspect } from '../../arena/__fixtures__/start-on.js'
