/** The primary's pure steps: the URL it announces, and which forwarded requests a dead worker owned. */
import { describe, expect, it } from 'vitest'
import { primaryUrl, requestsOwnedBy } from './run-cluster.js'

describe('primaryUrl', () => {
  it('puts an IPv6 host in brackets and leaves an IPv4 one as it is', () => {
    expect(primaryUrl({ address: '127.0.0.1', port: 8000 })).toBe('http://127.0.0.1:8000')
    expect(primaryUrl({ address: '::1', port: 41_234 })).toBe('http://[::1]:41234')
  })
})

describe('requestsOwnedBy', () => {
  it('lists the requests the owner was running, with who asked, in arrival order', () => {
    const inFlight = new Map([
      ['a', { from: 0, owner: 2 }],
      ['b', { from: 1, owner: 0 }],
      ['c', { from: 1, owner: 2 }],
    ])
    expect(requestsOwnedBy(inFlight, 2)).toEqual([
      { id: 'a', from: 0 },
      { id: 'c', from: 1 },
    ])
    expect(requestsOwnedBy(inFlight, 3)).toEqual([])
  })
})
