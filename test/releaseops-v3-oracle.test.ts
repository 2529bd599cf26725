/**
 * Every releaseops-v3 episode is winnable, by construction and by check (issue 14): the registered
 * oracle wins every row of train and eval (2,900 generated seeds over all nine families), every
 * combination of a family's hidden facts over a further sample, and is never beaten by a baseline.
 * The test itself is shared with v2: support/oracle-winnability.ts.
 */
import { archetypeMixes as archetypeMixesV2 } from '../src/envs/releaseops/arena/archetype-mixes.js'
import { heldOutMixesV3 } from '../src/envs/releaseops/v3/archetype-mixes.js'
import { buildScenarioV3 } from '../src/envs/releaseops/v3/build-scenario.js'
import { familiesV3 } from '../src/envs/releaseops/v3/families/index.js'
import { describeOracleWinnability } from './support/oracle-winnability.js'

describeOracleWinnability({
  envId: 'releaseops-v3',
  families: familiesV3,
  archetypeMixes: [...archetypeMixesV2, ...heldOutMixesV3],
  baselines: ['naive', 'rule', 'phase-aware-rule', 'evidence-heuristic', 'dissent-first-reader'],
  buildScenario: buildScenarioV3,
})
