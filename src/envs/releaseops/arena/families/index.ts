/**
 * @module envs/releaseops/arena/families: every v2 family, and which are held out of training. The held-out
 * families combine the rules in ways no seen family does: a hotfix whose risk tags point at the wrong
 * evidence, and two careful workers whose disagreement must be settled by the current run.
 */
import type { FamilySpec } from '../family-spec.js'
import { carefulQaSafe } from './careful-qa-safe.js'
import { carefulWorkersDisagree } from './careful-workers-disagree.js'
import { flakyTestRollback } from './flaky-test-rollback.js'
import { greenCiDisabledPaymentTest } from './green-ci-disabled-payment-test.js'
import { hotfixSkipsDeployChecks } from './hotfix-skips-deploy-checks.js'
import { qaUndercallsP1CheckoutBug } from './qa-undercalls-p1-checkout-bug.js'
import { releaseManagerShipBeforeEvidence } from './release-manager-ship-before-evidence.js'
import { securityTicketMistriagedP2 } from './security-ticket-mistriaged-p2.js'

export const familySpecs = [
  greenCiDisabledPaymentTest,
  qaUndercallsP1CheckoutBug,
  releaseManagerShipBeforeEvidence,
  carefulQaSafe,
  flakyTestRollback,
  securityTicketMistriagedP2,
  hotfixSkipsDeployChecks,
  carefulWorkersDisagree,
] as const satisfies readonly FamilySpec[]

export const familiesV2 = [
  'green_ci_disabled_payment_test',
  'qa_undercalls_p1_checkout_bug',
  'release_manager_ship_before_evidence',
  'careful_qa_safe',
  'flaky_test_rollback',
  'security_ticket_mistriaged_p2',
  'hotfix_skips_deploy_checks',
  'careful_workers_disagree',
] as const
export type FamilyV2 = (typeof familiesV2)[number]

export const heldOutFamiliesV2: readonly FamilyV2[] = ['hotfix_skips_deploy_checks', 'careful_workers_disagree']
export const seenFamiliesV2: readonly FamilyV2[] = familiesV2.filter((family) => !heldOutFamiliesV2.includes(family))

const byId = new Map<string, FamilySpec>(familySpecs.map((spec) => [spec.id, spec]))

export function familySpec(id: FamilyV2): FamilySpec {
  return byId.get(id) as FamilySpec
}
