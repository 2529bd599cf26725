import { describe, expect, it } from 'vitest'
import { wilsonInterval } from './wilson-interval.js'

describe('wilsonInterval', () => {
  it('bounds are the roots of the score equation |k/n - p| = z sqrt(p(1-p)/n)', () => {
    const z = 1.959963984540054
    for (const [successes, trials] of [
      [28, 50],
      [1, 30],
      [399, 400],
      [7, 13],
    ] as const) {
      const [low, high] = wilsonInterval(successes, trials) as [number, number]
      const score = (p: number) => Math.abs(successes / trials - p) - z * Math.sqrt((p * (1 - p)) / trials)
      expect(Math.abs(score(low))).toBeLessThan(1e-12)
      expect(Math.abs(score(high))).toBeLessThan(1e-12)
      expect(low).toBeLessThan(successes / trials)
      expect(high).toBeGreaterThan(successes / trials)
    }
  })

  it('stays inside [0, 1] at the extremes and is null without trials', () => {
    const [low0, high0] = wilsonInterval(0, 20) as [number, number]
    expect(low0).toBe(0)
    expect(high0).toBeCloseTo(0.16113, 4)
    const [low1, high1] = wilsonInterval(20, 20) as [number, number]
    expect(low1).toBeCloseTo(0.83887, 4)
    expect(high1).toBe(1)
    expect(wilsonInterval(0, 0)).toBeNull()
  })
})
