import { ReleaseOpsError } from './release-ops-error.js'

/** `step` was called before `reset`, or after the episode was truncated. */
export class ResetNeededError extends ReleaseOpsError {
  constructor(message = 'Call reset() before step(): no episode is running.') {
    super({ code: 'reset_needed', message })
    this.name = 'ResetNeededError'
  }
}
