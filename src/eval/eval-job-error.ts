/**
 * @module eval: what starting or cancelling an eval job can be refused with, and what a cancelled job
 * stops with. `status` is the HTTP status the server answers with (its operational routes read it, as
 * they read the train layer's errors').
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

/** What a cancelled job's run stops with, and the abort's reason: the job's recorded error (state `cancelled`). */
export function evalCancelled(): EvalJobError {
  return new EvalJobError({ code: 'eval_cancelled', message: 'cancelled', status: 409 })
}
