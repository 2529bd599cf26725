/**
 * Every releaseops-v2 episode is winnable, by construction and by check (issue 3, "must show"): the
 * registered oracle wins every row of train and eval (2,900 generated seeds over all eight families),
 * every combination of a family's hidden facts over a further sample, and is never beaten by a baseline.
 * The test itself is shared with v3: support/oracle-winnability.ts.
 */
import { archetypeMixes } from '../src/envs/releaseops/arena/archetype-mixes.js'
import { buildScenarioV2 } from '../src/envs/releaseops/arena/build-scenario.js'
import { familiesV2 } from '../src/envs/releaseops/arena/families/index.js'
import { describeOracleWinnability } from './support/oracle-winnability.js'

describeOracleWinnability({
  envId: 'releaseops-v2',
  families: familiesV2,
  archetypeMixes,
  baselines: ['naive', 'rule', 'phase-aware-rule'],
  buildScenario: buildScenarioV2,
})
