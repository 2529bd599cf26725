/**
 * releaseops-v3's datasets (issue 14): v2's split definition with v3's families and mixes: the three
 * held-out families (one with a new evidence structure) and the held-out mix appear only in eval_unseen;
 * sizes, balance and disjoint seeds as in v2; bytes pinned. v3 is the default env of the CLI. The split
 * checks are shared with v2: support/split-dataset-checks.ts.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { defaultEnvId } from '../src/envs/index.js'
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
}

describeSplitDataset({
  envId: 'releaseops-v3',
  families: familiesV3,
  seenFamilies: seenFamiliesV3,
  heldOutFamilies: heldOutFamiliesV3,
  trainMixes: trainMixesV3,
  heldOutMixes: heldOutMixesV3,
  pinned,
})

describe('releaseops-v3 dataset', () => {
  it('is the default env', () => {
    expect(defaultEnvId).toBe('releaseops-v3')
    expect(heldOutFamiliesV3).toContain('flag_gated_payment_suite')
  })

  it('`releaseops dataset` writes v3 by default', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'releaseops-v3-data-')), 'data')
    const result = runCli(['dataset', '--out', out])
    expect(result.status, result.stderr).toBe(0)
    for (const [split, hash] of Object.entries(pinned)) expect(sha256(readFileSync(join(out, `${split}.jsonl`)))).toBe(hash)
  })
})
