/** @module envs/releaseops: the three hard safety rules, their ids and aliases, judged on release facts. */

export const ruleIds = ['no_p1_open', 'payments_tests_must_pass', 'deploy_checks_before_ship'] as const
export type RuleId = (typeof ruleIds)[number]

const shortRuleIds = ['S1', 'S2', 'S3'] as const
export type ShortRuleId = (typeof shortRuleIds)[number]

/** Every spelling `block_proposal` accepts. */
export const acceptedRuleIds = [...shortRuleIds, ...ruleIds] as const
export type AcceptedRuleId = (typeof acceptedRuleIds)[number]

/** Every accepted spelling of a rule and the rule it names (the `rule_id` argument's aliases). */
export const canonicalByAlias: Readonly<Record<string, RuleId>> = {
  S1: 'no_p1_open',
  S2: 'payments_tests_must_pass',
  S3: 'deploy_checks_before_ship',
  no_p1_open: 'no_p1_open',
  payments_tests_must_pass: 'payments_tests_must_pass',
  deploy_checks_before_ship: 'deploy_checks_before_ship',
}

const shortByCanonical: Record<RuleId, ShortRuleId> = {
  no_p1_open: 'S1',
  payments_tests_must_pass: 'S2',
  deploy_checks_before_ship: 'S3',
}

/** The canonical id for an alias, or "" when it is not a rule (the original's `normalize_rule_id`). */
export function normalizeRuleId(rule: string): RuleId | '' {
  return Object.hasOwn(canonicalByAlias, rule) ? (canonicalByAlias[rule] as RuleId) : ''
}

export function shortRuleId(rule: string): ShortRuleId | '' {
  const canonical = normalizeRuleId(rule)
  return canonical === '' ? '' : shortByCanonical[canonical]
}

/** The ground truth the rules are checked against. Key order is the observation's. */
export type ReleaseFacts = {
  open_p1_bug: boolean
  payment_tests_disabled: boolean
  payment_tests_passing: boolean
  deploy_checks_passed: boolean
}

export function cleanReleaseFacts(): ReleaseFacts {
  return { open_p1_bug: false, payment_tests_disabled: false, payment_tests_passing: true, deploy_checks_passed: true }
}

/** The rules the facts break, in S1, S2, S3 order. */
export function violatedRules(facts: ReleaseFacts): RuleId[] {
  const violated: RuleId[] = []
  if (facts.open_p1_bug) violated.push('no_p1_open')
  if (facts.payment_tests_disabled || !facts.payment_tests_passing) violated.push('payments_tests_must_pass')
  if (!facts.deploy_checks_passed) violated.push('deploy_checks_before_ship')
  return violated
}
