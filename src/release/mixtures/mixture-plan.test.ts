import { describe, expect, it } from 'vitest'
import { mixtureHash, mixtureId, mixtureIdPattern, mixtureTargets, planDatasetEpisodes, sortMixtureRows } from './mixture-plan.js'

describe('mixture plan', () => {
  it('passthrough keeps every source; sqrt reweights train only, at the same total, by largest remainder', () => {
    const counts = { big: 100, small: 4 }
    expect(mixtureTargets({ counts, policy: 'passthrough', split: 'train' })).toEqual(counts)
    // 104·10/12 = 86.67 and 104·2/12 = 17.33: floors 86 + 17, the one left goes to the larger remainder.
    expect(mixtureTargets({ counts, policy: 'sqrt', split: 'train' })).toEqual({ big: 87, small: 17 })
    expect(mixtureTargets({ counts, policy: 'sqrt', split: 'val' })).toEqual(counts)
    expect(mixtureTargets({ counts: { only: 9 }, policy: 'sqrt', split: 'train' })).toEqual({ only: 9 })
  })

  it('cycles through hash-ordered sources, replicas numbered, ids independent of the input order', () => {
    const sources = ['s1', 's2', 's3']
    const episodes = planDatasetEpisodes({ dataset: 'ds', sourceIds: sources, target: 7 })
    expect(episodes.map((episode) => episode.cycle)).toEqual([0, 0, 0, 1, 1, 1, 2])
    const order = [...sources].sort((left, right) => (mixtureHash('ds', left) < mixtureHash('ds', right) ? -1 : 1))
    expect(episodes.map((episode) => episode.sourceId)).toEqual([...order, ...order, order[0]])
    expect(planDatasetEpisodes({ dataset: 'ds', sourceIds: [...sources].reverse(), target: 7 })).toEqual(episodes)
    expect(episodes[3]?.id).toBe(mixtureId({ dataset: 'ds', sourceId: order[0] as string, cycle: 1 }))
    expect(episodes[3]?.id).toMatch(mixtureIdPattern)
    expect(episodes[3]?.id).toBe(`mix:ds:${mixtureHash(order[0] as string).slice(0, 20)}:0001`)
  })

  it('orders rows by sha256(split, id, stage), the same whatever order they come in', () => {
    const rows = ['a', 'b', 'c', 'd'].flatMap((id) => ['stage1', 'stage2'].map((stage) => ({ id, stage })))
    const sorted = sortMixtureRows({ split: 'train', rows, key: (row) => row })
    expect(sortMixtureRows({ split: 'train', rows: [...rows].reverse(), key: (row) => row })).toEqual(sorted)
    const keys = sorted.map((row) => mixtureHash('train', row.id, row.stage))
    expect(keys).toEqual([...keys].sort())
    expect(sortMixtureRows({ split: 'val', rows, key: (row) => row })).not.toEqual(sorted)
  })
})
