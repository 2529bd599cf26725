/**
 * The dataset checks shared by releaseops-v2 and releaseops-v3: the split definitions (sizes, families,
 * mixes, balance, disjoint seeds) and byte stability (pinned sha256). Each version's test file calls
 * `describeSplitDataset` with its families, mixes and pins (and `sha256` for its CLI checks).
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { EnvDataset } from '../../src/core/env/env-dataset.js'
import { envRegistry } from '../../src/envs/index.js'

export interface SplitDatasetCheck {
  envId: string
  families: readonly string[]
  seenFamilies: readonly string[]
  heldOutFamilies: readonly string[]
  trainMixes: readonly string[]
  heldOutMixes: readonly string[]
  /** sha256 of each split file; a change here changes every published number, so it must be deliberate. */
  pinned: Readonly<Record<string, string>>
  /** Rows of the splits a version adds after the four shared ones (v3's wide evaluation). */
  extraSplits?: Readonly<Record<string, number>>
  /** Added splits that are other splits one after another (v3's `eval_wide`). */
  extraAggregates?: Readonly<Record<string, readonly string[]>>
}

export const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex')

/** A split's JSONL file, exactly as `releaseops dataset` writes it. */
function splitJsonl(dataset: EnvDataset, split: string): string {
  return dataset
    .rows(split)
    .map((row) => `${dataset.serializeRow(row)}\n`)
    .join('')
}

export function describeSplitDataset(check: SplitDatasetCheck): void {
  const dataset = envRegistry.get(check.envId).dataset!
  const jsonl = (split: string) => splitJsonl(dataset, split)

  describe(`${check.envId} dataset splits`, () => {
    it('defines train / eval_seen / eval_unseen / eval with held-out families and mix only in eval_unseen', () => {
      const rows = Object.fromEntries(dataset.splits.map((split) => [split, dataset.rows(split)]))
      expect(Object.fromEntries(Object.entries(rows).map(([split, list]) => [split, list.length]))).toEqual({
        train: 2400,
        eval_seen: 300,
        eval_unseen: 200,
        eval: 500,
        ...check.extraSplits,
      })
      expect(dataset.splits.slice(0, 4)).toEqual(['train', 'eval_seen', 'eval_unseen', 'eval'])
      expect(jsonl('eval')).toBe(jsonl('eval_seen') + jsonl('eval_unseen'))
      const families = (split: string) => new Set(rows[split]!.map((row) => row.family))
      expect(families('train')).toEqual(new Set(check.seenFamilies))
      expect(families('eval_seen')).toEqual(new Set(check.seenFamilies))
      expect(families('eval_unseen')).toEqual(new Set(check.families))
      for (const row of [...rows.train!, ...rows.eval_seen!]) expect(check.trainMixes).toContain(row.archetype_mix)
      for (const row of rows.eval_unseen!) {
        // Held-out families come with training mixes; seen families only with the held-out mix.
        if (check.heldOutFamilies.includes(row.family as string)) expect(check.trainMixes).toContain(row.archetype_mix)
        else expect(check.heldOutMixes).toContain(row.archetype_mix)
      }
      // Balanced: every family of a part gets the same rows per difficulty (±1).
      const counts = new Map<string, number>()
      for (const row of rows.eval_seen!)
        counts.set(`${row.family}/${row.difficulty}`, (counts.get(`${row.family}/${row.difficulty}`) ?? 0) + 1)
      expect(counts.size).toBe(check.seenFamilies.length * 3)
      expect(Math.max(...counts.values()) - Math.min(...counts.values())).toBeLessThanOrEqual(1)
      for (const [aggregate, parts] of Object.entries(check.extraAggregates ?? {}))
        expect(jsonl(aggregate)).toBe(parts.map(jsonl).join(''))
      // No episode twice: train, eval and every added split that is not a concatenation draw distinct seeds.
      const added = Object.keys(check.extraSplits ?? {}).filter((split) => !(split in (check.extraAggregates ?? {})))
      const seeds = [...rows.train!, ...rows.eval!, ...added.flatMap((split) => rows[split]!)].map((row) => row.seed)
      expect(new Set(seeds).size).toBe(seeds.length)
    })

    it(`keeps the v1 row format plus env_id ${check.envId}, and is byte-stable (pinned sha256)`, () => {
      const first = JSON.parse(dataset.serializeRow(dataset.rows('eval_unseen')[0]!))
      expect(Object.keys(first)).toEqual(['prompt', 'family', 'seed', 'difficulty', 'archetype_mix', 'split', 'env_id'])
      expect(first.env_id).toBe(check.envId)
      expect(dataset.serializeRow(dataset.rows('train')[0]!)).toMatch(
        /^\{"prompt": \[\{"role": "system", "content": "You are the release oversight supervisor/,
      )
      for (const [split, hash] of Object.entries(check.pinned)) {
        expect(sha256(jsonl(split)), split).toBe(hash)
        expect(jsonl(split)).toBe(jsonl(split))
      }
    })
  })
}
