/** @module release/workers: typed errors cross the thread boundary as JSON and are rebuilt on this side. */
import { carriedCode } from '../../core/errors/error-code.js'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'

export interface SerializedError {
  code: string
  message: string
  path?: string
  issues?: { code: string; path: string; message: string }[]
  invalidInput: boolean
}

export function serializeError(error: unknown): SerializedError {
  if (ReleaseOpsError.isInstance(error)) {
    return {
      code: error.code,
      message: error.message,
      ...(error.path === undefined ? {} : { path: error.path }),
      ...(InvalidInputError.isInstance(error) ? { issues: [...error.issues] } : {}),
      invalidInput: InvalidInputError.isInstance(error),
    }
  }
  return {
    code: 'worker_failed',
    message: error instanceof Error ? (error.stack ?? error.message) : String(error),
    invalidInput: false,
  }
}

export function deserializeError(error: SerializedError): Error {
  if (error.invalidInput) {
    return new InvalidInputError({
      code: carriedCode(error.code),
      message: error.message,
      issues: error.issues ?? [],
      ...(error.path === undefined ? {} : { path: error.path }),
    })
  }
  return new ReleaseOpsError({
    code: carriedCode(error.code),
    message: error.message,
    ...(error.path === undefined ? {} : { path: error.path }),
  })
}
