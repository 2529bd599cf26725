/**
 * releaseops-v3's datasets (issue 14): v2's split definition with v3's families and mixes: the three
 * held-out families (one with a new evidence structure) and the held-out mix appear only in eval_unseen;
 * sizes, balance and disjoint seeds as in v2; bytes pinned. v3 is the default env of the CLI.
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { defaultEnvId, envRegistry } from '../src/envs/index.js'
import { heldOutMixesV3, trainMixesV3 } from '../src/envs/releaseops/v3/archetype-mixes-v3.js'
import { familiesV3, heldOutFamiliesV3, seenFamiliesV3 } from '../src/envs/releaseops/v3/families/index.js'
import { runCli } from './support/run-cli.js'

const dataset = envRegistry.get('releaseops-v3').dataset!
const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex')
const jsonl = (split: string) =>
  dataset
    .rows(split)
    .map((row) => `${dataset.serializeRow(row)}\n`)
    .join('')

/** sha256 of each split file; a change here changes every published number, so it must be deliberate. */
const pinned = {
  train: '10b21241ebbe0a1a66445e0595c5b26902389314db3a49fbfa0deea23749a532',
  eval_seen: 'b7b3dc96277a38d6937aad4f5248c6160acb1bafaed4a216fd959f64b1af5831',
  eval_unseen: 'a698f9ead576f332ad0ab3e8cd3fe228a7f1b9df24ed82234d636ee0d96717f0',
  eval: 'e8119a491f0906fe18e5034e7a196b83556831c15d436d4401506640eebbfb71',
}

describe('releaseops-v3 dataset', () => {
  it('is the default env', () => {
    expect(defaultEnvId).toBe('releaseops-v3')
  })

  it('defines train / eval_seen / eval_unseen / eval with held-out families and mix only in eval_unseen', () => {
    const rows = Object.fromEntries(dataset.splits.map((split) => [split, dataset.rows(split)]))
    expect(Object.fromEntries(Object.entries(rows).map(([split, list]) => [split, list.length]))).toEqual({
      train: 2400,
      eval_seen: 300,
      eval_unseen: 200,
      eval: 500,
    })
    expect(jsonl('eval')).toBe(jsonl('eval_seen') + jsonl('eval_unseen'))
    const families = (split: string) => new Set(rows[split]!.map((row) => row.family))
    expect(families('train')).toEqual(new Set(seenFamiliesV3))
    expect(families('eval_seen')).toEqual(new Set(seenFamiliesV3))
    expect(families('eval_unseen')).toEqual(new Set(familiesV3))
    expect(heldOutFamiliesV3).toContain('flag_gated_payment_suite')
    for (const row of [...rows.train!, ...rows.eval_seen!]) expect(trainMixesV3).toContain(row.archetype_mix)
    for (const row of rows.eval_unseen!) {
      if (heldOutFamiliesV3.includes(row.family as never)) expect(trainMixesV3).toContain(row.archetype_mix)
      else expect(heldOutMixesV3).toContain(row.archetype_mix)
    }
    const seeds = [...rows.train!, ...rows.eval!].map((row) => row.seed)
    expect(new Set(seeds).size).toBe(seeds.length)
  })

  it('keeps the row format (env_id releaseops-v3) and is byte-stable (pinned sha256)', () => {
    const first = JSON.parse(dataset.serializeRow(dataset.rows('eval_unseen')[0]!))
    expect(Object.keys(first)).toEqual(['prompt', 'family', 'seed', 'difficulty', 'archetype_mix', 'split', 'env_id'])
    expect(first.env_id).toBe('releaseops-v3')
    for (const [split, hash] of Object.entries(pinned)) expect(sha256(jsonl(split)), split).toBe(hash)
  })

  it('`releaseops dataset` writes v3 by default', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'releaseops-v3-data-')), 'data')
    const result = runCli(['dataset', '--out', out])
    expect(result.status, result.stderr).toBe(0)
    for (const [split, hash] of Object.entries(pinned)) expect(sha256(readFileSync(join(out, `${split}.jsonl`)))).toBe(hash)
  })
})
