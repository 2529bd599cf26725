/**
 * The leak test of releaseops-v2 (issue 3), ported to releaseops-v3 (issue 14): counterfactual twins
 * over every family, difficulty, v2's mixes plus v3's held-out ones and many seeds. In v3 inspecting
 * either half of a joint pair that shows a fact is also an allowed reveal; block outcomes read only
 * verified checks. The test itself is shared with v2: support/counterfactual-twins.ts.
 */
import { archetypeMixes as archetypeMixesV2 } from '../src/envs/releaseops/arena/archetype-mixes.js'
import { heldOutMixesV3 } from '../src/envs/releaseops/v3/archetype-mixes.js'
import { buildScenarioV3 } from '../src/envs/releaseops/v3/build-scenario.js'
import { familiesV3 } from '../src/envs/releaseops/v3/families/index.js'
import { jointOf } from '../src/envs/releaseops/v3/joint-reveal.js'
import { ReleaseOpsV3Env } from '../src/envs/releaseops/v3/releaseops-env.js'
import { describeCounterfactualTwins } from './support/counterfactual-twins.js'

describeCounterfactualTwins({
  envId: 'releaseops-v3',
  families: familiesV3,
  archetypeMixes: [...archetypeMixesV2, ...heldOutMixesV3],
  buildScenario: buildScenarioV3,
  newEnv: (factOverrides) =>
    factOverrides
      ? new ReleaseOpsV3Env({ buildScenario: (options) => buildScenarioV3({ ...options, factOverrides }) })
      : new ReleaseOpsV3Env(),
  alsoReveals: (artifact, fact) => (jointOf(artifact)?.facts ?? []).includes(fact),
})
