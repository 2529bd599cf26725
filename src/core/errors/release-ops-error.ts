/** @module core/errors: the one base class every typed error of the project extends. */
import type { ErrorCode } from './error-code.js'

const marker = Symbol.for('releaseops.error')

export interface ReleaseOpsErrorOptions<Code extends string = ErrorCode> {
  code: Code
  message: string
  /** Where the problem is: a file, a JSON path, an argument name. */
  path?: string
  details?: Record<string, unknown>
  cause?: unknown
}

/**
 * Errors carry a stable `code` (snake_case) so callers branch on codes, never on messages.
 * `isInstance` works across duplicated package copies, which `instanceof` does not. `Code` is what the
 * constructor accepts: a listed `ErrorCode`, unless a subclass carries codes it does not own (a remote
 * server's, `unknown_<kind>`). Readers see `code` as a string.
 */
export class ReleaseOpsError<Code extends string = ErrorCode> extends Error {
  readonly code: string
  readonly path: string | undefined
  readonly details: Record<string, unknown> | undefined
  readonly [marker] = true

  // NoInfer: a code given to the base class itself is checked against ErrorCode, not taken as `Code`.
  constructor(options: ReleaseOpsErrorOptions<NoInfer<Code>>) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'ReleaseOpsError'
    this.code = options.code
    this.path = options.path
    this.details = options.details
  }

  static isInstance(value: unknown): value is ReleaseOpsError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true
  }

  toJSON(): { code: string; message: string; path?: string; details?: Record<string, unknown> } {
    return {
      code: this.code,
      message: this.message,
      ...(this.path === undefined ? {} : { path: this.path }),
      ...(this.details === undefined ? {} : { details: this.details }),
    }
  }
}
