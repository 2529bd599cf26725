import { describe, expect, it } from 'vitest'
import { PythonRandom } from '../core/python/python-random.js'
import { bootstrapDraws, pairedBootstrap } from './paired-bootstrap.js'

describe('paired bootstrap', () => {
  it('resamples whole rows: equals a direct implementation with the same seeded draws', () => {
    const clusters = [[1, 0], [0], [-1, 1, 1], [0, 0], [1]]
    const draws = bootstrapDraws({ clusterCount: clusters.length, resamples: 2000, seed: 7 })
    const random = new PythonRandom(7)
    const means: number[] = []
    for (let draw = 0; draw < 2000; draw++) {
      const picked = Array.from({ length: clusters.length }, () => clusters[random.randbelow(clusters.length)] as number[]).flat()
      means.push(picked.reduce((total, value) => total + value, 0) / picked.length)
    }
    means.sort((left, right) => left - right)
    const at = (fraction: number) => {
      const position = (means.length - 1) * fraction
      const lower = Math.floor(position)
      return (means[lower] as number) + ((means[Math.ceil(position)] as number) - (means[lower] as number)) * (position - lower)
    }
    const interval = pairedBootstrap(clusters, draws)!
    expect(interval.low).toBeCloseTo(at(0.025), 12)
    expect(interval.high).toBeCloseTo(at(0.975), 12)
  })

  it('is deterministic per seed, degenerate for constant differences, and brackets the mean', () => {
    const draws = bootstrapDraws({ clusterCount: 4, resamples: 1000, seed: 1 })
    expect(pairedBootstrap([[0.5], [0.5], [0.5], [0.5]], draws)).toEqual({ low: 0.5, high: 0.5 })
    const clusters = Array.from({ length: 60 }, (_, index) => [index % 3 === 0 ? 1 : 0])
    const many = bootstrapDraws({ clusterCount: 60, resamples: 5000, seed: 3 })
    const interval = pairedBootstrap(clusters, many)!
    expect(interval).toEqual(pairedBootstrap(clusters, bootstrapDraws({ clusterCount: 60, resamples: 5000, seed: 3 })))
    expect(interval.low).toBeLessThan(1 / 3)
    expect(interval.high).toBeGreaterThan(1 / 3)
    expect(interval.high - interval.low).toBeGreaterThan(0.15)
    expect(interval.high - interval.low).toBeLessThan(0.35)
  })

  it('gives a wider interval when samples of one row are correlated than if they were independent rows', () => {
    const rows = Array.from({ length: 30 }, (_, index) => (index % 2 === 0 ? [1, 1, 1, 1] : [0, 0, 0, 0]))
    const clustered = pairedBootstrap(rows, bootstrapDraws({ clusterCount: 30, resamples: 4000, seed: 0 }))!
    const flat = rows.flat().map((value) => [value])
    const independent = pairedBootstrap(flat, bootstrapDraws({ clusterCount: 120, resamples: 4000, seed: 0 }))!
    expect(clustered.high - clustered.low).toBeGreaterThan(1.5 * (independent.high - independent.low))
  })

  it('is null without pairs', () => {
    expect(pairedBootstrap([], bootstrapDraws({ clusterCount: 0, resamples: 10, seed: 0 }))).toBeNull()
  })
})
