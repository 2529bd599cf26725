/**
 * @module server/http: every error the server answers with, mapped in one place to an HTTP status and
 * a body `{error: {code, message, path?, issues?, ...details}}` (plus FastAPI's `detail` list on a 422,
 * which OpenEnv clients print), and to OpenEnv's WebSocket error codes.
 */
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { ReleaseOpsError, type ReleaseOpsErrorOptions } from '../../core/errors/release-ops-error.js'
import { UnknownNameError } from '../../core/errors/unknown-name-error.js'
import { CapacityReachedError, ClientShareReachedError } from '../session/session-errors.js'
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

const statusByCode: Record<string, number> = {
  invalid_json: 400,
  unknown_env: 404,
  unknown_session: 404,
  reset_needed: 409,
  capacity_reached: 429,
  too_many_sessions: 429,
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

export function httpStatusOf(error: unknown): number {
  if (error instanceof HttpError) return error.status
  if (error instanceof InvalidInputError) return 422
  // A split, policy or env the request names does not exist (decision 0047).
  if (error instanceof UnknownNameError) return 404
  if (ReleaseOpsError.isInstance(error)) return statusByCode[error.code] ?? 500
  return 500
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
  if (error instanceof InvalidInputError) body.detail = fastApiDetail(error.issues)
  // FastAPI's shape for a body that is not JSON, so OpenEnv-side code that prints `detail` has one.
  if (error.code === 'invalid_json')
    body.detail = [{ type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error', ctx: { error: error.message } }]
  return body
}

/** OpenEnv's WebSocket `{code, message, ...}` error data for an error raised while handling a message. */
export function wsErrorData(error: unknown): Record<string, unknown> & { code: WsErrorCode } {
  if (error instanceof CapacityReachedError) {
    return {
      code: 'CAPACITY_REACHED',
      message: error.message,
      active_sessions: error.activeSessions,
      max_sessions: error.maxSessions,
    }
  }
  if (error instanceof ClientShareReachedError) {
    return { code: 'CAPACITY_REACHED', message: error.message, error_code: error.code, ...error.details }
  }
  if (error instanceof InvalidInputError) {
    return {
      code: 'VALIDATION_ERROR',
      message: `Invalid message: ${error.message}`,
      error_code: error.code,
      issues: error.issues,
      errors: fastApiDetail(error.issues).map(({ type, loc, msg }) => ({ type, loc: loc.slice(1), msg })),
    }
  }
  if (ReleaseOpsError.isInstance(error)) {
    const code: WsErrorCode = error.code === 'unknown_session' ? 'SESSION_ERROR' : 'EXECUTION_ERROR'
    return { code, message: error.message, error_code: error.code }
  }
  return { code: 'EXECUTION_ERROR', message: 'Internal error while handling the message; see the server log.' }
}
