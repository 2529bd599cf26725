import { describe, expect, it } from 'vitest'
import { errorOutcomeOf } from './error-outcomes.js'
import { InternalInvariantError } from './internal-invariant-error.js'
import { InvalidInputError } from './invalid-input-error.js'
import { ReleaseOpsError } from './release-ops-error.js'

describe('InternalInvariantError', () => {
  it('is a coded error that keeps its message, answered as a failed run (500, exit 1)', () => {
    const error = new InternalInvariantError('the file is still open')
    expect(error.toJSON()).toEqual({ code: 'internal_invariant', message: 'the file is still open' })
    expect(error.name).toBe('InternalInvariantError')
    expect(InternalInvariantError.isInstance(error)).toBe(true)
    expect(ReleaseOpsError.isInstance(error)).toBe(true)
    expect(InvalidInputError.isInstance(error)).toBe(false)
    expect(errorOutcomeOf(error)).toEqual({ http: 500, exit: 1 })
  })
})
