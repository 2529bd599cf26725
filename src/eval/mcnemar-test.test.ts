import { describe, expect, it } from 'vitest'
import { mcnemarExact } from './mcnemar-test.js'

const pairs = (aOnly: number, bOnly: number, both = 0, neither = 0) => [
  ...Array.from({ length: aOnly }, () => [true, false] as const),
  ...Array.from({ length: bOnly }, () => [false, true] as const),
  ...Array.from({ length: both }, () => [true, true] as const),
  ...Array.from({ length: neither }, () => [false, false] as const),
]

describe('exact McNemar test', () => {
  it('is twice the smaller binomial(n, 1/2) tail of the discordant pairs', () => {
    const result = mcnemarExact(pairs(1, 9, 30, 10))
    expect([result.a_only, result.b_only]).toEqual([1, 9])
    expect(result.p_value).toBeCloseTo((2 * (1 + 10)) / 1024, 15)
    expect(mcnemarExact(pairs(10, 2)).p_value).toBeCloseTo((2 * (1 + 12 + 66)) / 4096, 15)
    expect(mcnemarExact(pairs(0, 26)).p_value).toBeCloseTo(2 / 2 ** 26, 20)
  })

  it('ignores concordant pairs, is symmetric, and is 1 without discordant pairs or at a tie', () => {
    expect(mcnemarExact(pairs(0, 0, 40, 10)).p_value).toBe(1)
    expect(mcnemarExact(pairs(5, 5)).p_value).toBe(1)
    expect(mcnemarExact(pairs(3, 11)).p_value).toBe(mcnemarExact(pairs(11, 3)).p_value)
    expect(mcnemarExact(pairs(3, 11, 100)).p_value).toBe(mcnemarExact(pairs(3, 11)).p_value)
  })

  it('stays finite and correct for large samples', () => {
    const result = mcnemarExact(pairs(480, 520))
    expect(result.p_value).toBeGreaterThan(0.2)
    expect(result.p_value).toBeLessThan(0.25)
  })
})
