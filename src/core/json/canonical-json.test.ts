import { describe, expect, it } from 'vitest'
import { canonicalJson } from './canonical-json.js'

describe('canonicalJson', () => {
  it('sorts keys at every depth, so key order does not change the text', () => {
    const left = { b: 1, a: { d: [2, { z: true, y: null }], c: 'x' } }
    const right = { a: { c: 'x', d: [2, { y: null, z: true }] }, b: 1 }
    expect(canonicalJson(left)).toBe('{"a":{"c":"x","d":[2,{"y":null,"z":true}]},"b":1}')
    expect(canonicalJson(right)).toBe(canonicalJson(left))
  })

  it('leaves out keys holding undefined and writes a bare undefined as null, like JSON.stringify', () => {
    expect(canonicalJson({ a: undefined, b: 2 })).toBe('{"b":2}')
    expect(canonicalJson([undefined, 'é'])).toBe('[null,"é"]')
    expect(canonicalJson(undefined)).toBe('null')
  })
})
