import { describe, expect, it } from 'vitest'
import { PythonRandom } from '../core/python/python-random.js'
import { clusteredInterval, type RowTally } from './clustered-interval.js'
import { wilsonInterval } from './wilson-interval.js'

const singles = (outcomes: readonly number[]): RowTally[] => outcomes.map((value) => ({ trials: 1, successes: value }))
const repeated = (outcomes: readonly number[], times: number): RowTally[] =>
  outcomes.map((value) => ({ trials: times, successes: value * times }))
const outcomes = Array.from({ length: 500 }, (_, index) => (index % 3 === 0 ? 0 : 1))

describe('clusteredInterval', () => {
  it('one episode per row is the plain Wilson interval over the episodes', () => {
    const result = clusteredInterval(singles(outcomes))
    expect(result.interval).toEqual(wilsonInterval(333, 500))
    expect(result).toMatchObject({ rows: 500, episodes: 500, effective_n: 500 })
  })

  it('a deterministic policy repeated 10 times rests on its distinct rows: the interval does not shrink', () => {
    const once = clusteredInterval(singles(outcomes))
    const tenTimes = clusteredInterval(repeated(outcomes, 10))
    expect(tenTimes).toMatchObject({ rows: 500, episodes: 5000, effective_n: 500 })
    expect(tenTimes.interval).toEqual(once.interval)
    // What counting the repeats as independent would have claimed: a narrower interval.
    const naive = wilsonInterval(3330, 5000) as [number, number]
    const honest = tenTimes.interval as [number, number]
    expect(naive[1] - naive[0]).toBeLessThan((honest[1] - honest[0]) / 3)
  })

  it('a rate of 0 or 1 has no variance to read: it rests on the distinct rows', () => {
    expect(clusteredInterval(repeated(Array(40).fill(1), 4))).toMatchObject({
      interval: wilsonInterval(40, 40),
      effective_n: 40,
    })
    expect(clusteredInterval(repeated(Array(40).fill(0), 4)).interval).toEqual(wilsonInterval(0, 40))
  })

  it('stochastic samples count between the rows and the episodes, as their within-row correlation says', () => {
    // Rows with a row-level rate drawn from {0.1, 0.5, 0.9}, four samples each.
    const random = new PythonRandom(11)
    const tallies: RowTally[] = Array.from({ length: 300 }, () => {
      const rate = [0.1, 0.5, 0.9][random.randbelow(3)] as number
      let successes = 0
      for (let sample = 0; sample < 4; sample++) successes += random.random() < rate ? 1 : 0
      return { trials: 4, successes }
    })
    const result = clusteredInterval(tallies)
    expect(result.rows).toBe(300)
    expect(result.episodes).toBe(1200)
    expect(result.effective_n).toBeGreaterThan(300)
    expect(result.effective_n).toBeLessThan(1200)
    // The design effect from its definition: the clustered variance of the rate over the binomial one.
    const successes = tallies.reduce((total, tally) => total + tally.successes, 0)
    const rate = successes / 1200
    const spread = tallies.reduce((total, tally) => total + (tally.successes - rate * 4) ** 2, 0)
    const designEffect = spread / 1200 ** 2 / ((rate * (1 - rate)) / 1200)
    expect(result.effective_n).toBeCloseTo(1200 / designEffect, 6)
    expect(result.interval).toEqual(wilsonInterval(rate * result.effective_n, result.effective_n))
  })

  it('independent-looking samples never count for more than the episodes (design effect at least 1)', () => {
    // Every row has exactly half its samples succeed: no spread between rows at all.
    const result = clusteredInterval(Array.from({ length: 50 }, () => ({ trials: 2, successes: 1 })))
    expect(result.effective_n).toBe(100)
    expect(result.interval).toEqual(wilsonInterval(50, 100))
  })

  it('no episodes: no interval; rows without episodes do not count', () => {
    expect(clusteredInterval([])).toEqual({ interval: null, rows: 0, episodes: 0, effective_n: 0 })
    expect(
      clusteredInterval([
        { trials: 0, successes: 0 },
        { trials: 1, successes: 1 },
      ]),
    ).toMatchObject({ rows: 1, episodes: 1 })
  })
})
