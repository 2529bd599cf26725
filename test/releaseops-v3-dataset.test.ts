/**
 * releaseops-v3's datasets (issue 14): v2's split definition with v3's families and mixes: the three
 * held-out families (one with a new evidence structure) and the held-out mix appear only in eval_unseen;
 * sizes, balance and disjoint seeds as in v2; bytes pinned. v3 is the default env of the CLI. The split
 * checks are shared with v2: support/split-dataset-checks.ts. Issue 34 added the wide evaluation: three
 * splits of 1,000 fresh rows, one per slice the audit reads, and `eval_wide`, the three together; the
 * four splits v3 shipped with keep their bytes.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { defaultEnvId, envRegistry } from '../src/envs/index.js'
import { heldOutMixesV3, trainMixesV3 } from '../src/envs/releaseops/v3/archetype-mixes.js'
import { familiesV3, heldOutFamiliesV3, seenFamiliesV3 } from '../src/envs/releaseops/v3/families/index.js'
import { runCli } from './support/run-cli.js'
import { describeSplitDataset, sha256 } from './support/split-dataset-checks.js'

/** sha256 of each split file; a change here changes every published number, so it must be deliberate. */
const pinned = {
  train: '10b21241ebbe0a1a66445e0595c5b26902389314db3a49fbfa0deea23749a532',
  eval_seen: 'b7b3dc96277a38d6937aad4f5248c6160acb1bafaed4a216fd959f64b1af5831',
  eval_unseen: 'a698f9ead576f332ad0ab3e8cd3fe228a7f1b9df24ed82234d636ee0d96717f0',
  eval: 'e8119a491f0906fe18e5034e7a196b83556831c15d436d4401506640eebbfb71',
  wide_seen: 'bc55f0b26243aedd1fc663bcf388320a6faab78b954590338c7e9b2c363bf59c',
  wide_held_out_mix: '2876b1282723ae41be338b3dbb9c2314bfaf0273becf14367516ff64742ce950',
  wide_held_out_families: '09e4228fc425dc0ab8e3115b9111e97e66bbabd0f93e4c5044441bf19f07c010',
  eval_wide: '05c13efb5206ece28ceae89ca1a37d5f2c4b173d53cce3fd2a918e4e199afcf6',
}
const wide = ['wide_seen', 'wide_held_out_mix', 'wide_held_out_families']

describeSplitDataset({
  envId: 'releaseops-v3',
  families: familiesV3,
  seenFamilies: seenFamiliesV3,
  heldOutFamilies: heldOutFamiliesV3,
  trainMixes: trainMixesV3,
  heldOutMixes: heldOutMixesV3,
  pinned,
  extraSplits: { wide_seen: 1000, wide_held_out_mix: 1000, wide_held_out_families: 1000, eval_wide: 3000 },
  extraAggregates: { eval_wide: wide },
})

describe('releaseops-v3 dataset', () => {
  it('is the default env', () => {
    expect(defaultEnvId).toBe('releaseops-v3')
    expect(heldOutFamiliesV3).toContain('flag_gated_payment_suite')
  })

  it('the wide splits: one slice each (seen, held-out mix, held-out families), balanced, from their own seed ranges', () => {
    const dataset = envRegistry.get('releaseops-v3').dataset!
    expect(dataset.splits).toEqual([
      'train',
      'eval_seen',
      'eval_unseen',
      'eval',
      'wide_seen',
      'wide_held_out_mix',
      'wide_held_out_families',
      'eval_wide',
    ])
    const slices = {
      wide_seen: [seenFamiliesV3, trainMixesV3, [400_000, 499_999]],
      wide_held_out_mix: [seenFamiliesV3, heldOutMixesV3, [500_000, 599_999]],
      wide_held_out_families: [heldOutFamiliesV3, trainMixesV3, [600_000, 699_999]],
    } as const
    for (const [split, [families, mixes, [low, high]]] of Object.entries(slices)) {
      const rows = dataset.rows(split)
      expect(new Set(rows.map((row) => row.family)), split).toEqual(new Set(families))
      for (const row of rows) {
        expect(mixes as readonly unknown[]).toContain(row.archetype_mix)
        expect(row.seed).toBeGreaterThanOrEqual(low)
        expect(row.seed).toBeLessThanOrEqual(high)
        expect(row.split).toBe(split)
      }
      const counts = new Map<string, number>()
      for (const row of rows)
        counts.set(`${row.family}/${row.difficulty}`, (counts.get(`${row.family}/${row.difficulty}`) ?? 0) + 1)
      expect(counts.size).toBe(families.length * 3)
      expect(Math.max(...counts.values()) - Math.min(...counts.values())).toBeLessThanOrEqual(1)
    }
  })

  it('`releaseops dataset` writes v3 by default', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'releaseops-v3-data-')), 'data')
    const result = runCli(['dataset', '--out-dir', out])
    expect(result.status, result.stderr).toBe(0)
    for (const [split, hash] of Object.entries(pinned)) expect(sha256(readFileSync(join(out, `${split}.jsonl`)))).toBe(hash)
  })
})
