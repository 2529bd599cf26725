/** @module eval: the error codes evaluation throws, checked against its sources by test/error-codes.test.ts. */
export const evalErrorCodes = [
  'ambiguous_policy',
  'dataset_unreadable',
  'empty_dataset',
  'endpoint_bad_response',
  'endpoint_not_found',
  'endpoint_status',
  'endpoint_unreachable',
  'episodes_file_exists',
  'invalid_compare_input',
  'invalid_dataset',
  'invalid_episodes_file',
  'invalid_reset_options',
  'no_dataset',
  'no_episode_summary',
  'no_episodes',
  'prompt_mismatch',
  'resume_mismatch',
] as const

export type EvalErrorCode = (typeof evalErrorCodes)[number]

declare module '../core/errors/error-code.js' {
  interface ErrorCodesByLayer {
    eval: EvalErrorCode
  }
}
