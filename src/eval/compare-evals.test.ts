import { describe, expect, it } from 'vitest'
import { compareRuns } from './compare-evals.js'
import type { ComparedEpisode, ComparedRun } from './load-compared-run.js'

function run(label: string, episodes: Omit<ComparedEpisode, 'key' | 'row'>[], samplesPerRow = 1): ComparedRun {
  return {
    label,
    path: `${label}.jsonl`,
    policy: label,
    unscored: 0,
    episodes: episodes.map((episode, index) => {
      const row = `row${Math.floor(index / samplesPerRow)}`
      return { ...episode, row, key: `${row}#${index % samplesPerRow}` }
    }),
  }
}

const episode = (split: string, reward: number, safe: boolean, turns: number) => ({
  fields: { split, family: split === 'seen' ? 'f1' : 'f2' },
  reward,
  rates: { safe_ship: safe },
  values: { turns },
})

describe('eval compare', () => {
  const a = run('a', [
    episode('seen', 0, false, 3),
    episode('seen', 1, true, 3),
    episode('unseen', 0, false, 4),
    episode('unseen', -1, false, 5),
  ])
  const b = run('b', [
    episode('seen', 1, true, 2),
    episode('seen', 1, true, 3),
    episode('unseen', 1, true, 4),
    episode('unseen', 0, false, 5),
  ])

  it('pairs by row and reports every metric with its difference, interval and McNemar counts', () => {
    const comparison = compareRuns({ a, b, resamples: 1000, seed: 0 })
    expect(comparison.pairs).toBe(4)
    expect(comparison.unpaired).toEqual({ a: 0, b: 0 })
    expect(comparison.slices.map((slice) => slice.slice)).toEqual([
      'overall',
      'split=seen',
      'split=unseen',
      'family=f1',
      'family=f2',
    ])
    const overall = comparison.slices[0]!
    expect(overall.metrics.map((metric) => metric.metric)).toEqual(['avg_reward', 'safe_ship_rate', 'avg_turns'])
    expect(overall.metrics[0]).toMatchObject({ a: 0, b: 0.75, diff: 0.75 })
    expect(overall.metrics[1]).toMatchObject({ a: 0.25, b: 0.75, diff: 0.5, mcnemar: { a_only: 0, b_only: 2, p_value: 0.5 } })
    expect(overall.metrics[2]).toMatchObject({ a: 3.75, b: 3.5, diff: -0.25 })
    expect(overall.metrics[2]!.mcnemar).toBeUndefined()
    const [low, high] = overall.metrics[0]!.ci95!
    expect(low).toBeLessThanOrEqual(0.75)
    expect(high).toBeGreaterThanOrEqual(0.75)
  })

  it('leaves unpaired episodes out and counts them', () => {
    const shorter = { ...b, episodes: b.episodes.slice(0, 3) }
    const comparison = compareRuns({ a, b: shorter, resamples: 100 })
    expect(comparison.pairs).toBe(3)
    expect(comparison.unpaired).toEqual({ a: 1, b: 0 })
  })

  it('bootstraps rows, not samples: several samples of a row move together', () => {
    const twoSamples = (label: string, safe: boolean[]) =>
      run(
        label,
        safe.map((value) => episode('seen', value ? 1 : 0, value, 1)),
        2,
      )
    const comparison = compareRuns({
      a: twoSamples('a', [false, false, true, true]),
      b: twoSamples('b', [true, true, true, true]),
      resamples: 500,
    })
    expect(comparison.slices[0]).toMatchObject({ pairs: 4, rows: 2 })
  })
})
