/** @module envs: the error codes the envs throw, checked against its sources by test/error-codes.test.ts. */
export const envsErrorCodes = [
  'ambiguous_display_name',
  'corpus_registry_mismatch',
  'invalid_archetype_mix',
  'invalid_corpus',
  'invalid_grading_config',
  'invalid_registry',
  'invalid_reset_options',
  'invalid_task_config',
  'privileged_policy_needs_env',
  'unwinnable_scenario',
] as const

export type EnvsErrorCode = (typeof envsErrorCodes)[number]

declare module '../core/errors/error-code.js' {
  interface ErrorCodesByLayer {
    envs: EnvsErrorCode
  }
}
