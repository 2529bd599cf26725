import { describe, expect, it } from 'vitest'
import { isAllowedHost, isAllowedOrigin, parseHost } from './host-guard.js'

describe('parseHost', () => {
  it('reads name[:port] and [ipv6][:port]', () => {
    expect(parseHost('LocalHost:8000')).toEqual({ name: 'localhost', port: 8000, urlName: 'localhost' })
    expect(parseHost('[::1]:80')).toEqual({ name: '::1', port: 80, urlName: '[::1]' })
    expect(parseHost('127.0.0.1')).toEqual({ name: '127.0.0.1', port: undefined, urlName: '127.0.0.1' })
    expect(parseHost('envs.example.org.')?.name).toBe('envs.example.org')
  })

  it('refuses anything else', () => {
    for (const value of [
      '127.0.0.1:99999',
      '[::1',
      'localhost:abc',
      'localhost:80@attacker.example',
      '[zz]',
      'a/b',
      ':80',
      '',
      undefined,
    ])
      expect(parseHost(value), String(value)).toBeUndefined()
  })
})

describe('isAllowedHost / isAllowedOrigin', () => {
  it('a malformed Host is never allowed, even with *', () => {
    expect(isAllowedHost('localhost:80@attacker.example', ['*'])).toBe(false)
    expect(isAllowedHost('anything.example:443', ['*'])).toBe(true)
  })

  it('same origin means the same host and port, default ports filled in', () => {
    const same = (origin: string, host: string) => isAllowedOrigin({ origin, host, allowedOrigins: [] })
    expect(same('http://localhost', 'localhost:80')).toBe(true)
    expect(same('https://localhost', 'localhost:443')).toBe(true)
    expect(same('http://[::1]:8000', '[::1]:8000')).toBe(true)
    expect(same('http://localhost:8001', 'localhost:8000')).toBe(false)
    expect(same('http://attacker.example', 'localhost:80@attacker.example')).toBe(false)
    expect(same('http://attacker.example', 'attacker.example.localhost')).toBe(false)
  })
})
