import { ReleaseOpsError } from './release-ops-error.js'

/**
 * A broken internal invariant: our own code broke a rule no input can reach (a writer used after close, a
 * batch of the wrong width built by our builder, a worker module run outside a worker). A bug to report,
 * not a refusal to act on: code `internal_invariant`, HTTP 500, CLI exit 1. Input that can reach a check
 * gets an input error with its own code instead (decision 0070).
 */
export class InternalInvariantError extends ReleaseOpsError {
  constructor(message: string) {
    super({ code: 'internal_invariant', message })
    this.name = 'InternalInvariantError'
  }
}
