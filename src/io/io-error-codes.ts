/** @module io: the error codes file and network I/O throws, checked against its sources by test/error-codes.test.ts. */
export const ioErrorCodes = [
  'endpoint_invalid_url',
  'endpoint_not_allowed',
  'endpoint_redirect_refused',
  'endpoint_scheme_refused',
  'endpoint_unresolved',
  'input_missing',
  'input_unreadable',
  'invalid_allow_endpoint',
  'invalid_json',
  'invalid_record_file',
  'output_exists',
  'output_locked',
] as const

export type IoErrorCode = (typeof ioErrorCodes)[number]

declare module '../core/errors/error-code.js' {
  interface ErrorCodesByLayer {
    io: IoErrorCode
  }
}
