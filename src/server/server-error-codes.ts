/** @module server: the error codes the server throws, checked against its sources by test/error-codes.test.ts. */
export const serverErrorCodes = [
  'bad_request',
  'bad_url',
  'body_timeout',
  'capacity_reached',
  'endpoint_credentials_refused',
  'header_timeout',
  'headers_too_large',
  'host_not_allowed',
  'host_not_available',
  'invalid_content_length',
  'invalid_host',
  'invalid_json',
  'invalid_server_options',
  'invalid_session_id',
  'json_rpc_error',
  'malformed_request',
  'method_not_allowed',
  'missing_session_header',
  'model_endpoint_required',
  'not_a_file',
  'not_found',
  'not_listening',
  'origin_not_allowed',
  'payload_too_large',
  'port_in_use',
  'port_not_permitted',
  'push_running',
  'request_timeout',
  'route_access_undeclared',
  'single_process_only',
  'symlink_refused',
  'token_not_configured',
  'too_many_connections',
  'too_many_sessions',
  'too_many_streams',
  'trainer_failed',
  'unauthorized',
  'unknown_session',
  'unsupported_media_type',
  'upgrade_required',
  'uri_too_long',
  'validation_error',
  'worker_starting',
  'worker_unavailable',
] as const

export type ServerErrorCode = (typeof serverErrorCodes)[number]

declare module '../core/errors/error-code.js' {
  interface ErrorCodesByLayer {
    server: ServerErrorCode
  }
}
