/**
 * @module eval: what starting or cancelling an eval job can be refused with. `status` is the HTTP status
 * the server answers with (its operational routes read it, as they read the train layer's errors').
 */
import { ReleaseOpsError, type ReleaseOpsErrorOptions } from '../core/errors/release-ops-error.js'

export class EvalJobError extends ReleaseOpsError {
  readonly status: number

  constructor(options: ReleaseOpsErrorOptions & { status: number }) {
    super(options)
    this.name = 'EvalJobError'
    this.status = options.status
  }
}
