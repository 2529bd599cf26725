import { describe, expect, it } from 'vitest'
import { bearerTokenOf, checkAccess, tokenMatches } from './token-guard.js'

const token = 'a-long-enough-token-123'
const failure = (run: () => void) => {
  try {
    run()
  } catch (error) {
    return error as { status: number; code: string; headers: Record<string, string> }
  }
  return undefined
}

describe('checkAccess', () => {
  it('public routes are always open', () => {
    expect(failure(() => checkAccess({ access: 'public', token, authorization: undefined }))).toBeUndefined()
  })

  it('session routes are open without a configured token and need it with one', () => {
    expect(failure(() => checkAccess({ access: 'session', token: undefined, authorization: undefined }))).toBeUndefined()
    expect(failure(() => checkAccess({ access: 'session', token, authorization: undefined }))).toMatchObject({
      status: 401,
      code: 'unauthorized',
      headers: { 'www-authenticate': 'Bearer realm="releaseops"' },
    })
    expect(failure(() => checkAccess({ access: 'session', token, authorization: `Bearer ${token}x` }))?.status).toBe(401)
    expect(failure(() => checkAccess({ access: 'session', token, authorization: `bearer ${token}` }))).toBeUndefined()
  })

  it('operational routes need a token always: 403 when the server has none', () => {
    expect(
      failure(() => checkAccess({ access: 'operational', token: undefined, authorization: `Bearer ${token}` })),
    ).toMatchObject({
      status: 403,
      code: 'token_not_configured',
    })
    expect(failure(() => checkAccess({ access: 'operational', token, authorization: 'Basic abc' }))?.status).toBe(401)
    expect(failure(() => checkAccess({ access: 'operational', token, authorization: `Bearer ${token}` }))).toBeUndefined()
  })

  it('parses bearer headers strictly and compares tokens of any length', () => {
    expect(bearerTokenOf('Bearer abc')).toBe('abc')
    expect(bearerTokenOf('Bearer  abc  ')).toBe('abc')
    expect(bearerTokenOf('Bearer a b')).toBeUndefined()
    expect(bearerTokenOf('Token abc')).toBeUndefined()
    expect(tokenMatches('short', token)).toBe(false)
    expect(tokenMatches(token, token)).toBe(true)
  })
})
