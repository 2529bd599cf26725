/** @module eval: the error codes evaluation throws, checked against its sources by test/error-codes.test.ts. */
export const evalErrorCodes = [
  'ambiguous_policy',
  'dataset_unreadable',
  'empty_dataset',
  'empty_split',
  'endpoint_bad_response',
  'endpoint_not_found',
  'endpoint_status',
  'endpoint_unreachable',
  'episodes_file_exists',
  'eval_cancelled',
  'eval_running',
  'gate_bounds_not_formal',
  'invalid_compare_input',
  'invalid_dataset',
  'invalid_episodes_file',
  'invalid_reset_options',
  'missing_option',
  'no_dataset',
  'no_episode_summary',
  'no_episodes',
  'no_eval_running',
  'prompt_mismatch',
  'resume_mismatch',
  'resume_without_file',
] as const

export type EvalErrorCode = (typeof evalErrorCodes)[number]

declare module '../core/errors/error-code.js' {
  interface ErrorCodesByLayer {
    eval: EvalErrorCode
  }
}
