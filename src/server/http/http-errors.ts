/**
 * @module server/http: every error the server answers with, mapped in one place, by its code, to an
 * HTTP status (the error module's outcome table, decision 0070) and a body `{error: {code, message,
 * path?, issues?, ...details}}` (plus FastAPI's `detail` list on a 422 with issues, which OpenEnv
 * clients print), and to OpenEnv's WebSocket error codes.
 */

import { errorOutcomeOf } from '../../core/errors/error-outcomes.js'
import { type InputIssue, InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { ReleaseOpsError, type ReleaseOpsErrorOptions } from '../../core/errors/release-ops-error.js'
import { fastApiDetail } from '../wire/validation-issues.js'

/** An error that names its own HTTP status (auth, routing, limits). */
export class HttpError extends ReleaseOpsError {
  readonly status: number
  readonly headers: Record<string, string>

  constructor(options: ReleaseOpsErrorOptions & { status: number; headers?: Record<string, string> }) {
    super(options)
    this.name = 'HttpError'
    this.status = options.status
    this.headers = options.headers ?? {}
  }
}

/** OpenEnv `WSErrorCode` values. */
export type WsErrorCode =
  | 'INVALID_JSON'
  | 'UNKNOWN_TYPE'
  | 'VALIDATION_ERROR'
  | 'EXECUTION_ERROR'
  | 'CAPACITY_REACHED'
  | 'FACTORY_ERROR'
  | 'SESSION_ERROR'

/**
 * The status of a reply carrying `error`: the one it names itself when the thrower chose it (an
 * `HttpError`, a train-layer error, a limit that varies), else its code's in the outcome table.
 */
export function httpStatusOf(error: unknown): number {
  return namedStatus(error) ?? errorOutcomeOf(error).http
}

/** A status our error carries as its `status` field (`HttpError` and the train layer's errors do). */
export function namedStatus(error: unknown): number | undefined {
  if (!ReleaseOpsError.isInstance(error)) return undefined
  const status = (error as { status?: unknown }).status
  return typeof status === 'number' ? status : undefined
}

/** The headers an `HttpError` asks for (`WWW-Authenticate`, `Retry-After`, ...). */
export function httpErrorHeaders(error: unknown): Record<string, string> {
  return HttpError.isInstance(error) ? error.headers : {}
}

/** The JSON body for an error; unexpected errors keep their message out of the reply (it is logged). */
export function httpErrorBody(error: unknown): Record<string, unknown> {
  if (!ReleaseOpsError.isInstance(error)) {
    return { error: { code: 'internal_error', message: 'Internal server error; see the server log.' } }
  }
  const { issues, ...details } = error.details ?? {}
  const body: Record<string, unknown> = {
    error: {
      code: error.code,
      message: error.message,
      ...(error.path === undefined ? {} : { path: error.path }),
      ...(Array.isArray(issues) ? { issues } : {}),
      ...details,
    },
  }
  if (InvalidInputError.isInstance(error)) body.detail = fastApiDetail(error.issues)
  // FastAPI's shape for a body that is not JSON, so OpenEnv-side code that prints `detail` has one.
  if (error.code === 'invalid_json')
    body.detail = [{ type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error', ctx: { error: error.message } }]
  return body
}

/** OpenEnv's WebSocket `{code, message, ...}` error data for an error raised while handling a message. */
export function wsErrorData(error: unknown): Record<string, unknown> & { code: WsErrorCode } {
  if (!ReleaseOpsError.isInstance(error)) return { ...internalWsError }
  // OpenEnv's own capacity error carries the counts under its own names, and no `error_code`.
  if (error.code === 'capacity_reached') return { code: 'CAPACITY_REACHED', message: error.message, ...error.details }
  if (error.code === 'too_many_sessions')
    return { code: 'CAPACITY_REACHED', message: error.message, error_code: error.code, ...error.details }
  const issues = error.details?.issues
  if (errorOutcomeOf(error).http === 422 && Array.isArray(issues)) {
    return {
      code: 'VALIDATION_ERROR',
      message: `Invalid message: ${error.message}`,
      error_code: error.code,
      issues,
      errors: fastApiDetail(issues as InputIssue[]).map(({ type, loc, msg }) => ({ type, loc: loc.slice(1), msg })),
    }
  }
  const code: WsErrorCode = error.code === 'unknown_session' ? 'SESSION_ERROR' : 'EXECUTION_ERROR'
  return { code, message: error.message, error_code: error.code }
}

const internalWsError: Record<string, unknown> & { code: WsErrorCode } = {
  code: 'EXECUTION_ERROR',
  message: 'Internal error while handling the message; see the server log.',
}
