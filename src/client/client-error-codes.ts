/** @module client: the error codes the env client throws, checked against its sources by test/error-codes.test.ts. */
export const clientErrorCodes = [
  'connection_lost',
  'episode_lost',
  'invalid_metadata',
  'malformed_reply',
  'request_timeout',
] as const

export type ClientErrorCode = (typeof clientErrorCodes)[number]

declare module '../core/errors/error-code.js' {
  interface ErrorCodesByLayer {
    client: ClientErrorCode
  }
}
