export { type InputIssue, InvalidInputError } from './invalid-input-error.js'
export { ReleaseOpsError, type ReleaseOpsErrorOptions } from './release-ops-error.js'
export { ResetNeededError } from './reset-needed-error.js'
export { UnknownNameError } from './unknown-name-error.js'
