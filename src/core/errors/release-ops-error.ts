/** @module core/errors: the one base class every typed error of the project extends. */
import type { ErrorCode } from './error-code.js'

const marker = Symbol.for('releaseops.error')
/** The names of an error's classes, its own first, up to `ReleaseOpsError`: what `isInstance` reads. */
const classes = Symbol.for('releaseops.error.classes')

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
 * `isInstance` works across duplicated package copies, which `instanceof` does not: called on a
 * subclass (`InvalidInputError.isInstance(x)`) it matches that class and its subclasses by class name,
 * so no module outside this one needs `instanceof` on our errors (decision 0070). `Code` is what the
 * constructor accepts: a listed `ErrorCode`, unless a subclass carries codes it does not own (a remote
 * server's, `unknown_<kind>`). Readers see `code` as a string.
 */
export class ReleaseOpsError<Code extends string = ErrorCode> extends Error {
  readonly code: string
  readonly path: string | undefined
  readonly details: Record<string, unknown> | undefined
  readonly [marker] = true
  readonly [classes]: readonly string[]

  // NoInfer: a code given to the base class itself is checked against ErrorCode, not taken as `Code`.
  constructor(options: ReleaseOpsErrorOptions<NoInfer<Code>>) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'ReleaseOpsError'
    this.code = options.code
    this.path = options.path
    this.details = options.details
    const names: string[] = []
    for (let type = new.target; type !== ReleaseOpsError; type = Object.getPrototypeOf(type)) names.push(type.name)
    this[classes] = [...names, 'ReleaseOpsError']
  }

  /** Whether `value` is one of our errors of this class (or a subclass of it), from any package copy. */
  static isInstance<T extends ReleaseOpsError<string>>(this: abstract new (...args: never[]) => T, value: unknown): value is T {
    if (typeof value !== 'object' || value === null || (value as Record<symbol, unknown>)[marker] !== true) return false
    const names = (value as Record<symbol, unknown>)[classes]
    // biome-ignore lint/complexity/noThisInStatic: called on a subclass, `this` is that subclass.
    const name = this.name
    return name === 'ReleaseOpsError' || (Array.isArray(names) && names.includes(name))
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
