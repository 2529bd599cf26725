/** @module envs/releaseops/arena/policies: the baseline ladder v2 registers and v3 starts its own from, weakest first. */
import type { PolicyRegistration } from '../../../../core/registry/policy-registry.js'
import { naivePolicy } from './naive.js'
import { phaseAwareRulePolicy } from './phase-aware-rule.js'
import { rulePolicy } from './rule.js'

export const baselinePolicies: readonly PolicyRegistration[] = [
  { name: 'naive', description: 'Approve every unresolved proposal in order.', create: naivePolicy as never },
  {
    name: 'rule',
    description:
      'Inspect each proposal’s first PR/CI ref, block payments proposals (S2) and verified violations, approve the rest.',
    create: rulePolicy as never,
  },
  {
    name: 'phase-aware-rule',
    description: 'Inspect the riskiest ship once per phase; block what the verified checks show broken and hold, else approve.',
    create: phaseAwareRulePolicy as never,
  },
]
