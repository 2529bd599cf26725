import { describe, expect, it } from 'vitest'
import type { DatasetRow } from '../core/env/env-dataset.js'
import { envRegistry } from '../envs/index.js'
import { heldOutMixesV3 } from '../envs/releaseops/v3/archetype-mixes.js'
import { heldOutFamiliesV3, seenFamiliesV3 } from '../envs/releaseops/v3/families/index.js'
import { stratifiedRows } from './stratified-rows.js'

const dataset = envRegistry.get('releaseops-v3').dataset!
const evalRows = dataset.rows('eval')

describe('stratifiedRows', () => {
  it("50 rows of v3's eval cover every slice: both splits, every family, the held-out mix (the first 50 are all eval_seen)", () => {
    expect(new Set(evalRows.slice(0, 50).map((row) => row.split))).toEqual(new Set(['eval_seen']))
    const picked = stratifiedRows(evalRows, 50, dataset.groupBy)
    expect(picked).toHaveLength(50)
    const count = (predicate: (row: DatasetRow) => boolean) => picked.filter(predicate).length
    expect(count((row) => row.split === 'eval_seen')).toBe(25)
    expect(count((row) => row.split === 'eval_unseen')).toBe(25)
    for (const family of [...seenFamiliesV3, ...heldOutFamiliesV3])
      expect(
        count((row) => row.family === family),
        family,
      ).toBeGreaterThan(0)
    expect(count((row) => (heldOutMixesV3 as readonly unknown[]).includes(row.archetype_mix))).toBeGreaterThan(0)
    expect(count((row) => (heldOutFamiliesV3 as readonly unknown[]).includes(row.family))).toBeGreaterThan(0)
    // Dataset order is kept, and no row is taken twice.
    const positions = picked.map((row) => evalRows.indexOf(row))
    expect(positions).toEqual([...positions].sort((left, right) => left - right))
    expect(new Set(positions).size).toBe(50)
  })

  it('is deterministic and a count that covers the split returns every row in order', () => {
    expect(stratifiedRows(evalRows, 50, dataset.groupBy)).toEqual(stratifiedRows(evalRows, 50, dataset.groupBy))
    expect(stratifiedRows(evalRows, 500, dataset.groupBy)).toEqual(evalRows)
    expect(stratifiedRows(evalRows, 9999, dataset.groupBy)).toEqual(evalRows)
  })

  it('takes in turn from each value, level by level; rows missing a key form their own stratum', () => {
    const rows = [
      { seed: 1, split: 'a', family: 'x' },
      { seed: 2, split: 'a', family: 'x' },
      { seed: 3, split: 'a', family: 'y' },
      { seed: 4, split: 'b', family: 'x' },
      { seed: 5 },
    ] as DatasetRow[]
    expect(stratifiedRows(rows, 3, ['split', 'family']).map((row) => row.seed)).toEqual([1, 4, 5])
    expect(stratifiedRows(rows, 4, ['split', 'family']).map((row) => row.seed)).toEqual([1, 3, 4, 5])
    expect(stratifiedRows(rows, 2, []).map((row) => row.seed)).toEqual([1, 2])
  })
})
