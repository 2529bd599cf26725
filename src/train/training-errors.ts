/** @module train: errors of training orchestration that name the HTTP status a route answers with. */
import { ReleaseOpsError, type ReleaseOpsErrorOptions } from '../core/errors/release-ops-error.js'

/** A request that conflicts with what is running (a second start, a stop with nothing running). */
export class TrainingStateError extends ReleaseOpsError {
  readonly status: number

  constructor(options: ReleaseOpsErrorOptions & { status?: number }) {
    super(options)
    this.name = 'TrainingStateError'
    this.status = options.status ?? 409
  }
}

/** The server cannot run jobs as configured (no trainer script, cluster mode, no Hub token, ...). */
export class TrainingUnavailableError extends ReleaseOpsError {
  readonly status: number

  constructor(options: ReleaseOpsErrorOptions & { status?: number }) {
    super(options)
    this.name = 'TrainingUnavailableError'
    this.status = options.status ?? 503
  }
}
