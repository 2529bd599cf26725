/**
 * @module envs/releaseops/arena: the four hidden release facts, which rule each one feeds, and what
 * `release_checks` shows for them (`"unverified"` until an inspection verifies the current candidate).
 */
import type { ReleaseFacts, RuleId } from '../shared/safety-rules.js'

export const factKeys = ['open_p1_bug', 'payment_tests_disabled', 'payment_tests_passing', 'deploy_checks_passed'] as const
export type FactKey = (typeof factKeys)[number]

/** The value of each fact that breaks its rule. */
export const badValue: Readonly<Record<FactKey, boolean>> = {
  open_p1_bug: true,
  payment_tests_disabled: true,
  payment_tests_passing: false,
  deploy_checks_passed: false,
}

export const ruleOfFact: Readonly<Record<FactKey, RuleId>> = {
  open_p1_bug: 'no_p1_open',
  payment_tests_disabled: 'payments_tests_must_pass',
  payment_tests_passing: 'payments_tests_must_pass',
  deploy_checks_passed: 'deploy_checks_before_ship',
}

export function isFactBad(facts: ReleaseFacts, key: FactKey): boolean {
  return facts[key] === badValue[key]
}

/** What `release_checks` shows for one fact. */
export type CheckValue = boolean | 'unverified'
export type ReleaseChecks = Record<FactKey, CheckValue>

export function unverifiedChecks(): ReleaseChecks {
  return {
    open_p1_bug: 'unverified',
    payment_tests_disabled: 'unverified',
    payment_tests_passing: 'unverified',
    deploy_checks_passed: 'unverified',
  }
}

/** Rules a set of verified checks shows broken (in S1, S2, S3 order). */
export function verifiedViolations(checks: ReleaseChecks): RuleId[] {
  const rules: RuleId[] = []
  for (const key of factKeys) {
    const value = checks[key]
    if (value !== 'unverified' && value === badValue[key] && !rules.includes(ruleOfFact[key])) rules.push(ruleOfFact[key])
  }
  return rules.sort((left, right) => ruleOrder[left] - ruleOrder[right])
}

const ruleOrder: Record<RuleId, number> = { no_p1_open: 0, payments_tests_must_pass: 1, deploy_checks_before_ship: 2 }
