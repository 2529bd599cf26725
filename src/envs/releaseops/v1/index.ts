/** @module envs/releaseops/v1: the `releaseops-v1` registration and its baselines. */
import type { EnvRegistration } from '../../../core/registry/env-registry.js'
import type { PolicyRegistration } from '../../../core/registry/policy-registry.js'
import { canonicalByAlias } from '../shared/safety-rules.js'
import { summarizeReleaseOpsEpisode } from '../shared/summarize-episode.js'
import { datasetV1 } from './dataset.js'
import { naivePolicy } from './policies/naive.js'
import { phaseAwareRulePolicy } from './policies/phase-aware-rule.js'
import { rulePolicy } from './policies/rule.js'
import { ReleaseOpsV1Env, type ReleaseOpsV1Observation, releaseOpsV1Spec } from './releaseops-env.js'

export const releaseOpsV1: EnvRegistration<ReleaseOpsV1Observation> = {
  spec: releaseOpsV1Spec,
  create: () => new ReleaseOpsV1Env(),
  dataset: datasetV1,
  summarizeEpisode: summarizeReleaseOpsEpisode,
  argumentAliases: { rule_id: canonicalByAlias },
}

export const releaseOpsV1Policies: PolicyRegistration[] = [
  { name: 'naive', description: 'Approve every unresolved proposal in order.', create: naivePolicy as never },
  {
    name: 'rule',
    description: 'Inspect the first PR/CI ref, block payments proposals with S2, approve the rest.',
    create: rulePolicy as never,
  },
  {
    name: 'phase-aware-rule',
    description: 'Inspect the riskiest ship proposal once, block listed violations, approve the rest.',
    create: phaseAwareRulePolicy as never,
  },
]

export { datasetRowsV1, familyConfigV1, splitsV1 } from './dataset.js'
export type { ObservationViewV1, ProposalViewV1 } from './observation-view.js'
export { ReleaseOpsV1Env, type ReleaseOpsV1Observation, releaseOpsV1Spec } from './releaseops-env.js'
export { type FamilyV1, familiesV1 } from './scenario.js'
