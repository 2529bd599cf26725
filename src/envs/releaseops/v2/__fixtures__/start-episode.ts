/** @module envs/releaseops/v2/__fixtures__: starts a v2 episode with chosen facts or a tweaked draw, for the tests beside the env. */
import { startOn } from '../../arena/__fixtures__/start-on.js'
import type { ReleaseFacts } from '../../shared/safety-rules.js'
import { buildScenarioV2 } from '../../arena/build-scenario.js'
import { drawScenario } from '../../arena/draw-scenario.js'
import type { FamilyV2 } from '../../arena/families/index.js'
import { ReleaseOpsV2Env } from '../releaseops-env.js'
import type { Scenario } from '../../arena/scenario.js'

export interface Setup {
  family?: FamilyV2
  seed?: number
  difficulty?: 'low' | 'medium' | 'high'
  mix?: string
  facts?: Partial<ReleaseFacts>
  tweak?: (scenario: Scenario) => Scenario
}

export function startEpisode(setup: Setup = {}) {
  const env = new ReleaseOpsV2Env({
    buildScenario: (options) =>
      buildScenarioV2({ ...options, ...(setup.facts ? { factOverrides: setup.facts } : {}) }, (draw) =>
        setup.tweak ? setup.tweak(drawScenario(draw)) : drawScenario(draw),
      ),
  })
  return startOn(env, setup)
}

export { approve, ask, block, hold, inspect } from '../../arena/__fixtures__/start-on.js'
