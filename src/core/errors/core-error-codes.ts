/** @module core: the error codes core throws, checked against its sources by test/error-codes.test.ts. */
export const coreErrorCodes = [
  'conformance_failed',
  'duplicate_env_id',
  'duplicate_policy',
  'env_not_auditable',
  'internal_invariant',
  'invalid_env_id',
  'invalid_input',
  'invalid_reset_options',
  'reset_needed',
  'strict_json',
] as const

export type CoreErrorCode = (typeof coreErrorCodes)[number]

declare module './error-code.js' {
  interface ErrorCodesByLayer {
    core: CoreErrorCode
  }
}
