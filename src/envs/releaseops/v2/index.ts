/** @module envs/releaseops/v2: the `releaseops-v2` registration, its baselines and its oracle. */
import type { EnvRegistration } from '../../../core/registry/env-registry.js'
import type { PolicyRegistration } from '../../../core/registry/policy-registry.js'
import { baselinePolicies } from '../arena/policies/baseline-policies.js'
import { canonicalByAlias } from '../shared/safety-rules.js'
import { summarizeReleaseOpsEpisode } from '../shared/summarize-episode.js'
import { datasetV2 } from './dataset.js'
import { oraclePolicy } from './policies/oracle.js'
import { ReleaseOpsV2Env, type ReleaseOpsV2Observation, releaseOpsV2Spec } from './releaseops-env.js'

export const releaseOpsV2: EnvRegistration<ReleaseOpsV2Observation> = {
  spec: releaseOpsV2Spec,
  create: () => new ReleaseOpsV2Env(),
  dataset: datasetV2,
  summarizeEpisode: summarizeReleaseOpsEpisode,
  argumentAliases: { rule_id: canonicalByAlias },
}

export const releaseOpsV2Policies: PolicyRegistration[] = [
  ...baselinePolicies,
  {
    name: 'oracle',
    description: 'Reads the hidden facts and plays the plan that wins every episode with the most reward (the ceiling).',
    privileged: true,
    create: oraclePolicy as never,
  },
]

export { buildScenarioV2, playOracle } from '../arena/build-scenario.js'
export { type FamilyV2, familiesV2, heldOutFamiliesV2, seenFamiliesV2 } from '../arena/families/index.js'
export type { ArenaObservationView, ProposalView } from '../arena/observation-view.js'
export { datasetRowsV2, splitsV2 } from './dataset.js'
export { ReleaseOpsV2Env, type ReleaseOpsV2Observation, releaseOpsV2Spec } from './releaseops-env.js'
