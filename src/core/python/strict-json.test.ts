import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseStrictJson } from './strict-json.js'

describe('parseStrictJson', () => {
  it('agrees with JSON.parse on any JSON document without duplicate keys', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom('', ' ', '\n\t'), (value, padding) => {
        const text = `${padding}${JSON.stringify(value)}${padding}`
        const parsed = parseStrictJson(text)
        expect(parsed).toEqual({ ok: true, value: JSON.parse(text) })
      }),
      { numRuns: 300 },
    )
  })

  it('rejects duplicate keys at any depth, trailing data and bad syntax; accepts Python NaN and Infinity', () => {
    expect(parseStrictJson('{"a":1,"a":2}')).toMatchObject({ ok: false, reason: expect.stringMatching(/duplicate key "a"/) })
    expect(parseStrictJson('{"x":{"b":1,"b":1}}').ok).toBe(false)
    expect(parseStrictJson('{"a":1} {"b":2}')).toMatchObject({ ok: false, reason: expect.stringMatching(/extra data/) })
    for (const bad of ['', '{', '{"a":}', "{'a':1}", '[1,]', '"\u0001"', '01', '{"a" 1}'])
      expect(parseStrictJson(bad).ok).toBe(false)
    expect(parseStrictJson('[NaN, -Infinity]')).toEqual({ ok: true, value: [Number.NaN, Number.NEGATIVE_INFINITY] })
    expect(parseStrictJson(`${'['.repeat(100000)}${']'.repeat(100000)}`)).toMatchObject({ ok: false })
  })
})
