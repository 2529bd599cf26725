/** @module train: errors of training orchestration that name the HTTP status a route answers with. */
import { ReleaseOpsError, type ReleaseOpsErrorOptions } from '../core/errors/release-ops-error.js'

type StatusErrorOptions = ReleaseOpsErrorOptions & { status?: number }

/** What both errors share: a name and a default status the caller may override. */
abstract class TrainingStatusError extends ReleaseOpsError {
  readonly status: number

  protected constructor(name: string, defaultStatus: number, options: StatusErrorOptions) {
    super(options)
    this.name = name
    this.status = options.status ?? defaultStatus
  }
}

/** A request that conflicts with what is running (a second start, a stop with nothing running). */
export class TrainingStateError extends TrainingStatusError {
  constructor(options: StatusErrorOptions) {
    super('TrainingStateError', 409, options)
  }
}

/** The server cannot run jobs as configured (no trainer script, cluster mode, no Hub token, ...). */
export class TrainingUnavailableError extends TrainingStatusError {
  constructor(options: StatusErrorOptions) {
    super('TrainingUnavailableError', 503, options)
  }
}
