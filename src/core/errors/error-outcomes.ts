/**
 * @module core/errors: what each error code means to the two edges that answer with one — the HTTP
 * status the server replies with and the exit code the CLI ends with (decision 0070). One table, read by
 * code, never by class: `instanceof` fails across duplicated package copies, and a status chosen by class
 * drifts from the code the body carries. `test/error-outcomes.test.ts` checks the table against every
 * layer's code list; a code missing here does not compile.
 *
 * The table names codes of every layer, as `ErrorCode` does, and imports nothing from them.
 */
import type { ErrorCode } from './error-code.js'
import { InvalidInputError } from './invalid-input-error.js'
import { ReleaseOpsError } from './release-ops-error.js'

export interface ErrorOutcome {
  /** The HTTP status of a reply carrying this error. */
  readonly http: number
  /**
   * The CLI's exit code: 2 when the input or request was refused (a 4xx, and the few 5xx codes in
   * `refusedBeforeRunning`), 1 when the run failed (a 5xx).
   */
  readonly exit: 1 | 2
}

type StatusGroups = readonly (readonly [status: number, codes: readonly ErrorCode[]])[]

/** The groups, unchanged, when they cover every `ErrorCode`; otherwise a type error naming the missing codes. */
function everyCode<const Groups extends StatusGroups>(
  groups: Groups &
    ([Exclude<ErrorCode, Groups[number][1][number]>] extends [never]
      ? unknown
      : { missing: Exclude<ErrorCode, Groups[number][1][number]> }),
): Groups {
  return groups
}

/** Each code's HTTP status, the statuses the server answered with before the table (decision 0070). */
// biome-ignore format: a table, one status per block, codes packed
const statusGroups = everyCode([
  [400, [
    'absolute_path', 'bad_request', 'bad_url', 'invalid_content_length', 'invalid_host', 'invalid_json', 'invalid_path',
    'malformed_request', 'missing_session_header', 'not_a_directory', 'not_a_file', 'path_too_long', 'path_traversal',
  ]],
  [401, [
    'unauthorized',
  ]],
  [403, [
    'endpoint_not_allowed', 'not_regular', 'origin_not_allowed', 'symlink_refused', 'token_not_configured',
  ]],
  [404, [
    'not_found', 'unknown_env', 'unknown_session',
  ]],
  [405, [
    'method_not_allowed',
  ]],
  [408, [
    'body_timeout', 'header_timeout', 'request_timeout',
  ]],
  [409, [
    'eval_cancelled', 'eval_running', 'no_eval_running', 'no_training_running', 'output_exists', 'output_locked',
    'port_in_use', 'push_running', 'reset_needed', 'single_process_only', 'training_running',
  ]],
  [413, [
    'payload_too_large', 'push_too_large',
  ]],
  [414, [
    'uri_too_long',
  ]],
  [415, [
    'unsupported_media_type',
  ]],
  [421, [
    'host_not_allowed',
  ]],
  [422, [
    'ambiguous_display_name', 'ambiguous_leaf_code', 'ambiguous_policy', 'artifact_hash_mismatch', 'bad_probe_report',
    'completion_budget_too_small', 'conflicting_options', 'corpus_registry_mismatch', 'csv_delimiter', 'csv_encoding',
    'csv_unreadable', 'password_protected', 'xlsx_malformed', 'xlsx_too_large',
    'dataset_already_configured', 'dataset_mismatch', 'dataset_unreadable', 'env_not_auditable', 'duplicate_input', 'empty_dataset',
    'empty_input', 'empty_split', 'endpoint_credentials_refused', 'endpoint_invalid_url', 'endpoint_redirect_refused',
    'endpoint_scheme_refused', 'endpoint_unresolved', 'episodes_file_exists', 'gate_bounds_not_formal',
    'grading_hash_mismatch', 'grading_manifest_missing_dataset', 'input_missing', 'input_unreadable',
    'invalid_allow_endpoint', 'invalid_archetype_mix', 'invalid_cell_text', 'invalid_classification_standard',
    'invalid_compare_input', 'invalid_corpus', 'invalid_dataset', 'invalid_dataset_config', 'invalid_dataset_name',
    'invalid_env_url', 'invalid_episodes_file', 'invalid_export_report', 'invalid_faults', 'invalid_grading_config',
    'invalid_grading_manifest', 'invalid_input', 'invalid_mapping', 'invalid_metadata', 'invalid_mixture_report',
    'invalid_mode', 'invalid_option', 'invalid_patch_list', 'invalid_prompt', 'invalid_record', 'invalid_record_file',
    'invalid_registry', 'invalid_release_report', 'invalid_render_request', 'invalid_reset_options',
    'invalid_server_options', 'invalid_task_config', 'invalid_tools', 'invalid_trajectory_release',
    'invalid_verl_settings', 'label_gap', 'missing_api_key', 'missing_header', 'missing_metadata_field', 'missing_model',
    'missing_option', 'mixture_id_collision', 'mixture_input_invalid', 'mixture_thinking_mismatch',
    'mock_thoughts_not_formal', 'model_endpoint_required', 'model_family_mismatch', 'model_family_unknown',
    'model_not_available', 'model_path_not_folder', 'no_dataset', 'no_env_audit', 'no_episode_summary', 'no_episodes',
    'no_paired_episodes', 'no_policy', 'no_result_impossible', 'not_a_formal_dataset', 'not_a_rollout_release',
    'not_a_verl_run', 'nothing_to_push', 'out_dir_inside_layout', 'output_is_directory', 'output_not_a_directory',
    'output_not_a_file', 'output_not_writable', 'output_parent_not_directory', 'path_escape', 'policy_and_model',
    'prompt_conflicts', 'prompt_mismatch', 'release_artifact_missing', 'release_not_passed', 'release_task_mismatch',
    'repeat_with_model', 'resume_mismatch', 'resume_without_file', 'sheet_not_found', 'standards_misaligned',
    'trajectory_not_rewarded', 'trajectory_tool_error', 'unknown_dataset', 'unknown_model', 'unreadable_parquet',
    'unresolved_labels', 'unsupported_input', 'unsupported_release', 'validation_error', 'xlsx_unreadable',
  ]],
  [426, [
    'upgrade_required',
  ]],
  [429, [
    'capacity_reached', 'too_many_connections', 'too_many_sessions',
  ]],
  [431, [
    'headers_too_large',
  ]],
  [500, [
    'bad_reply', 'conformance_failed', 'connection_lost', 'context_length_exceeded', 'duplicate_env_id',
    'duplicate_policy', 'endpoint_bad_response', 'endpoint_not_found', 'endpoint_redirect', 'endpoint_rejected',
    'endpoint_reply_too_large', 'endpoint_status', 'endpoint_timeout', 'endpoint_truncated', 'endpoint_unauthorized',
    'endpoint_unreachable', 'env_catalogue_without_envs', 'episode_lost', 'gguf_not_found', 'host_not_available',
    'http_failed', 'internal_invariant', 'invalid_env_id', 'invalid_messages', 'invalid_session_id', 'json_rpc_error',
    'malformed_reply', 'not_prefix_preserving', 'optional_dependency_missing', 'parquet_decode', 'parquet_shape',
    'parquet_value_shape', 'port_not_permitted', 'privileged_policy_needs_env',
    'publication_withheld', 'python_failed', 'python_package_missing', 'render_shortcut_mismatch', 'rl_python_missing',
    'route_access_undeclared', 'scripted_conversation_mismatch', 'smoke_failed', 'smoke_timeout',
    'staged_release_invalid', 'start_failed', 'strict_json', 'task_bundle_changed', 'template_error',
    'tokenizer_missing', 'too_few_steps', 'trainer_failed', 'unwinnable_scenario', 'worker_failed',
  ]],
  [502, [
    'hub_endpoint_refused', 'hub_error',
  ]],
  [503, [
    'hub_token_missing', 'hub_unreachable', 'not_listening', 'outputs_not_writable', 'too_many_streams',
    'worker_starting', 'worker_unavailable',
  ]],
])

/**
 * Codes the CLI ends with 2 although their status is a 5xx: nothing ran yet, and the user can act before
 * trying again (start the endpoint, install the optional package). A server answering them did fail to
 * serve the request, so their status stays a 5xx.
 */
const refusedBeforeRunning: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['endpoint_unreachable', 'optional_dependency_missing'])

const outcomes = new Map<string, ErrorOutcome>(
  statusGroups.flatMap(([http, codes]) =>
    codes.map((code) => [code, refusedBeforeRunning.has(code) ? { http, exit: 2 } : outcomeOfStatus(http)] as const),
  ),
)

function outcomeOfStatus(http: number): ErrorOutcome {
  return { http, exit: http < 500 ? 2 : 1 }
}

/** The listed outcome of `code`, or undefined for a code no layer lists (an issue's, a remote server's). */
export function outcomeOfCode(code: string): ErrorOutcome | undefined {
  return outcomes.get(code)
}

/**
 * The outcome of any thrown value: a listed code's; a registry miss (`unknown_<kind>`, decision 0047)
 * is a 404; an input error carrying an issue's code is a 422; anything else, ours or not, a 500.
 */
export function errorOutcomeOf(error: unknown): ErrorOutcome {
  if (!ReleaseOpsError.isInstance(error)) return outcomeOfStatus(500)
  const listed = outcomes.get(error.code)
  if (listed) return listed
  if (error.code.startsWith('unknown_')) return outcomeOfStatus(404)
  return outcomeOfStatus(InvalidInputError.isInstance(error) ? 422 : 500)
}

/** Every listed code with its outcome, sorted by code (for tests and docs). */
export function errorOutcomeTable(): [code: string, outcome: ErrorOutcome][] {
  return [...outcomes].sort(([a], [b]) => a.localeCompare(b))
}
