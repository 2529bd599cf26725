/**
 * The leak test of releaseops-v2 (issue 3, "must show"): counterfactual twins over every family,
 * difficulty, several mixes and many seeds. The test itself is shared with v3: support/counterfactual-twins.ts.
 */
import { archetypeMixes } from '../src/envs/releaseops/arena/archetype-mixes.js'
import { buildScenarioV2 } from '../src/envs/releaseops/arena/build-scenario.js'
import { familiesV2 } from '../src/envs/releaseops/arena/families/index.js'
import { ReleaseOpsV2Env } from '../src/envs/releaseops/v2/releaseops-env.js'
import { describeCounterfactualTwins } from './support/counterfactual-twins.js'

describeCounterfactualTwins({
  envId: 'releaseops-v2',
  families: familiesV2,
  archetypeMixes,
  buildScenario: buildScenarioV2,
  newEnv: (factOverrides) =>
    factOverrides
      ? new ReleaseOpsV2Env({ buildScenario: (options) => buildScenarioV2({ ...options, factOverrides }) })
      : new ReleaseOpsV2Env(),
})
