import type { ErrorCode } from './error-code.js'
import { ReleaseOpsError } from './release-ops-error.js'

export interface InputIssue {
  code: string
  path: string
  message: string
}

/** Input failed validation (reset options, a config file, a dataset row). Carries every issue with its path. */
export class InvalidInputError extends ReleaseOpsError {
  readonly issues: readonly InputIssue[]

  constructor(options: { message: string; issues: readonly InputIssue[]; path?: string | undefined; code?: ErrorCode }) {
    super({
      code: options.code ?? 'invalid_input',
      message: options.message,
      ...(options.path === undefined ? {} : { path: options.path }),
      details: { issues: options.issues },
    })
    this.name = 'InvalidInputError'
    this.issues = options.issues
  }
}
