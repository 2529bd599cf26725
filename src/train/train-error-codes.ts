/** @module train: the error codes training throws, checked against its sources by test/error-codes.test.ts. */
export const trainErrorCodes = [
  'absolute_path',
  'artifact_hash_mismatch',
  'bad_probe_report',
  'bad_reply',
  'completion_budget_too_small',
  'http_failed',
  'hub_endpoint_refused',
  'hub_error',
  'hub_token_missing',
  'hub_unreachable',
  'invalid_env_url',
  'invalid_patch_list',
  'invalid_path',
  'invalid_release_report',
  'invalid_verl_settings',
  'model_family_mismatch',
  'model_family_unknown',
  'model_not_available',
  'model_path_not_folder',
  'no_dataset',
  'no_policy',
  'no_training_running',
  'not_a_directory',
  'not_a_verl_run',
  'not_found',
  'not_regular',
  'nothing_to_push',
  'outputs_not_writable',
  'path_escape',
  'path_too_long',
  'path_traversal',
  'push_too_large',
  'python_failed',
  'python_package_missing',
  'release_artifact_missing',
  'release_not_passed',
  'rl_python_missing',
  'smoke_failed',
  'smoke_timeout',
  'start_failed',
  'symlink_refused',
  'task_bundle_changed',
  'tokenizer_missing',
  'too_few_steps',
  'training_running',
  'unsupported_release',
] as const

export type TrainErrorCode = (typeof trainErrorCodes)[number]

declare module '../core/errors/error-code.js' {
  interface ErrorCodesByLayer {
    train: TrainErrorCode
  }
}
