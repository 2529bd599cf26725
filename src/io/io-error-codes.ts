/** @module io: the error codes file I/O throws, checked against its sources by test/error-codes.test.ts. */
export const ioErrorCodes = [
  'input_missing',
  'input_unreadable',
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
