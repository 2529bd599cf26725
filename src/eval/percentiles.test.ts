import { describe, expect, it } from 'vitest'
import { latencySummary, percentile } from './percentiles.js'

describe('percentiles', () => {
  it('interpolate linearly between closest ranks (numpy default)', () => {
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2.5)
    expect(percentile([1, 2, 3, 4], 0.9)).toBeCloseTo(3.7, 12)
    expect(percentile([5], 0.99)).toBe(5)
    expect(percentile([], 0.5)).toBeNull()
  })

  it('summarise latencies in any order', () => {
    expect(latencySummary([40, 10, 30, 20])).toEqual({ count: 4, mean: 25, p50: 25, p90: 37, p99: 39.7, max: 40 })
    expect(latencySummary([])).toEqual({ count: 0, mean: null, p50: null, p90: null, p99: null, max: null })
  })
})
