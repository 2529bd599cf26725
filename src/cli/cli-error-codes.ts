/** @module cli: the error codes the CLI throws, checked against its sources by test/error-codes.test.ts. */
export const cliErrorCodes = [
  'bad_probe_report',
  'conflicting_options',
  'env_catalogue_without_envs',
  'invalid_faults',
  'invalid_json',
  'invalid_option',
  'invalid_render_request',
  'invalid_server_options',
  'invalid_tools',
  'missing_api_key',
  'missing_option',
  'no_dataset',
  'no_env_audit',
  'no_paired_episodes',
  'no_policy',
  'output_is_directory',
  'output_not_a_directory',
  'output_not_a_file',
  'output_not_writable',
  'output_parent_not_directory',
  'policy_and_model',
  'repeat_with_model',
  'unknown_env',
] as const

export type CliErrorCode = (typeof cliErrorCodes)[number]

declare module '../core/errors/error-code.js' {
  interface ErrorCodesByLayer {
    cli: CliErrorCode
  }
}
