import { describe, expect, it } from 'vitest'
import { InvalidInputError } from './invalid-input-error.js'
import { ReleaseOpsError } from './release-ops-error.js'
import { ResetNeededError } from './reset-needed-error.js'

class NarrowInputError extends InvalidInputError {}

describe('ReleaseOpsError.isInstance', () => {
  it('matches the class it is called on and its subclasses, not its siblings', () => {
    const narrow = new NarrowInputError({ message: 'm', issues: [] })
    expect(ReleaseOpsError.isInstance(narrow)).toBe(true)
    expect(InvalidInputError.isInstance(narrow)).toBe(true)
    expect(NarrowInputError.isInstance(narrow)).toBe(true)
    expect(ResetNeededError.isInstance(narrow)).toBe(false)
    expect(NarrowInputError.isInstance(new InvalidInputError({ message: 'm', issues: [] }))).toBe(false)
    expect(InvalidInputError.isInstance(new Error('m'))).toBe(false)
    expect(ReleaseOpsError.isInstance({ code: 'x' })).toBe(false)
  })

  it('matches an error of another copy of the package, which instanceof does not', () => {
    // A second copy: same class names, different class objects.
    const copy = new (class InvalidInputError extends ReleaseOpsError {})({ code: 'invalid_input', message: 'm' })
    expect(copy instanceof InvalidInputError).toBe(false)
    expect(InvalidInputError.isInstance(copy)).toBe(true)
    expect(ResetNeededError.isInstance(copy)).toBe(false)
  })
})
