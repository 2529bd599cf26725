/** @module release/canonical: the usage error of a canonical or audit stage option, with its one issue. */
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'

export function invalidOption(path: string, message: string): InvalidInputError {
  return new InvalidInputError({ code: 'invalid_option', path, message, issues: [{ code: 'invalid_option', path, message }] })
}
