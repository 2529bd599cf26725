/**
 * @module core/errors: the error codes, one union per layer (decision 0058). Each layer lists its codes
 * in `<layer>-error-codes.ts` and adds them to `ErrorCodesByLayer` by declaration merging, so core names
 * no code of a layer above it and `ErrorCode` is every layer's codes. Error constructors take an
 * `ErrorCode`: a misspelt or unlisted code does not compile; `test/error-codes.test.ts` checks that each
 * list holds exactly the codes its layer throws.
 */

/** Filled by each layer: `declare module '…/core/errors/error-code.js' { interface ErrorCodesByLayer { … } }`. */
// biome-ignore lint/suspicious/noEmptyInterface: the layers merge their members in.
export interface ErrorCodesByLayer {}

/** Any layer's error code. */
export type ErrorCode = ErrorCodesByLayer[keyof ErrorCodesByLayer]

/**
 * A code passed on from an input issue (ours, or zod's own issue codes) or from an error raised
 * elsewhere: issue codes are an open vocabulary, and a passed-on error's code was checked where it was
 * made. The one place a string becomes an `ErrorCode` unchecked; `test/error-codes.test.ts` counts its uses.
 */
export function carriedCode(code: string): ErrorCode {
  return code as ErrorCode
}
