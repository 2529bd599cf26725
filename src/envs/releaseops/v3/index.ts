/** @module envs/releaseops/v3: the `releaseops-v3` registration (the default env), its baseline ladder, its oracle and its exploit audit. */
import type { EnvRegistration } from '../../../core/registry/env-registry.js'
import type { PolicyRegistration } from '../../../core/registry/policy-registry.js'
import { baselinePolicies } from '../arena/policies/baseline-policies.js'
import { canonicalByAlias } from '../shared/safety-rules.js'
import { summarizeReleaseOpsEpisode } from '../shared/summarize-episode.js'
import { releaseOpsV3Audit } from './audit/releaseops-audit.js'
import { datasetV3 } from './dataset.js'
import { evidenceHeuristicPolicy } from './policies/evidence-heuristic.js'
import { dissentFirstReaderPolicy } from './policies/evidence-reader.js'
import { oracleV3Policy } from './policies/oracle.js'
import { ReleaseOpsV3Env, type ReleaseOpsV3Observation, releaseOpsV3Spec } from './releaseops-env.js'

export const releaseOpsV3: EnvRegistration<ReleaseOpsV3Observation> = {
  spec: releaseOpsV3Spec,
  create: () => new ReleaseOpsV3Env(),
  dataset: datasetV3,
  summarizeEpisode: summarizeReleaseOpsEpisode,
  argumentAliases: { rule_id: canonicalByAlias },
  audit: releaseOpsV3Audit,
}

/** The ladder, weakest first (`dissent-first-reader` is the strongest general reader); `oracle` is the ceiling. */
export const releaseOpsV3Policies: PolicyRegistration[] = [
  ...baselinePolicies,
  {
    name: 'evidence-heuristic',
    description:
      'Ask the dissenting worker when evidence is scarce, read what the ship and vouching proposals cite, block verified failures, ship when nothing verified is broken.',
    create: evidenceHeuristicPolicy as never,
  },
  {
    name: 'dissent-first-reader',
    description:
      "Read what dissenting workers cite, then the ship's refs, then the vouchers' (CI runs first), follow the run a re-run names, block what is verified broken, ship when nothing is.",
    create: dissentFirstReaderPolicy as never,
  },
  {
    name: 'oracle',
    description: 'Reads the hidden facts and plays the plan that wins every episode (the ceiling).',
    privileged: true,
    create: oracleV3Policy as never,
  },
]

export { buildScenarioV3, playOracleV3 } from './build-scenario.js'
export { datasetRowsV3, splitsV3 } from './dataset.js'
export { type FamilyV3, familiesV3, heldOutFamiliesV3, seenFamiliesV3 } from './families/index.js'
export { ReleaseOpsV3Env, type ReleaseOpsV3Observation, releaseOpsV3Spec } from './releaseops-env.js'
