/**
 * releaseops-v2 datasets and CLI: the split definitions (sizes, families, mixes, disjoint seeds), byte
 * stability (pinned sha256, the same through the library and the CLI), and the CLI on the default env:
 * `dataset`, `env render`, `env check` and `eval --policy oracle` (safe_ship_rate 1.0).
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { defaultEnvId, envRegistry } from '../src/envs/index.js'
import { heldOutMixes, trainMixes } from '../src/envs/releaseops/v2/archetype-mixes.js'
import { familiesV2, heldOutFamiliesV2, seenFamiliesV2 } from '../src/envs/releaseops/v2/families/index.js'
import { runCli } from './support/run-cli.js'

const dataset = envRegistry.get('releaseops-v2').dataset!
const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex')
const jsonl = (split: string) =>
  dataset
    .rows(split)
    .map((row) => `${dataset.serializeRow(row)}\n`)
    .join('')

/** sha256 of each split file; a change here changes every published number, so it must be deliberate. */
const pinned = {
  train: '87d807e57919fa8642d67757ee38dfa945720c471ec410c77ba42ce781c65489',
  eval_seen: '06b15077f0e9e81c440f84a88602db99e8478959a82c764b2e8732bd5f4b8078',
  eval_unseen: '4d53daf4be4f2440f3c8bc1d85e13507b7b421d44254e42d4debf49aa0fbb5d0',
  eval: '2dcb51625c104580adfe16418a4af15115d0be85bf69a0ed004f772f498327c0',
}

describe('releaseops-v2 dataset', () => {
  it('stays registered and frozen after v3 became the default env', () => {
    expect(defaultEnvId).toBe('releaseops-v3')
    expect(envRegistry.has('releaseops-v2')).toBe(true)
  })

  it('defines train / eval_seen / eval_unseen / eval with the documented sizes, families and mixes', () => {
    const rows = Object.fromEntries(dataset.splits.map((split) => [split, dataset.rows(split)]))
    expect(Object.fromEntries(Object.entries(rows).map(([split, list]) => [split, list.length]))).toEqual({
      train: 2400,
      eval_seen: 300,
      eval_unseen: 200,
      eval: 500,
    })
    expect(jsonl('eval')).toBe(jsonl('eval_seen') + jsonl('eval_unseen'))
    const families = (split: string) => new Set(rows[split]!.map((row) => row.family))
    expect(families('train')).toEqual(new Set(seenFamiliesV2))
    expect(families('eval_seen')).toEqual(new Set(seenFamiliesV2))
    expect(families('eval_unseen')).toEqual(new Set(familiesV2))
    for (const row of [...rows.train!, ...rows.eval_seen!]) expect(trainMixes).toContain(row.archetype_mix)
    for (const row of rows.eval_unseen!) {
      // Held-out families come with training mixes; seen families only with the held-out mix.
      if (heldOutFamiliesV2.includes(row.family as never)) expect(trainMixes).toContain(row.archetype_mix)
      else expect(heldOutMixes).toContain(row.archetype_mix)
    }
    // Balanced: every family of a part gets the same rows per difficulty (±1).
    const counts = new Map<string, number>()
    for (const row of rows.eval_seen!)
      counts.set(`${row.family}/${row.difficulty}`, (counts.get(`${row.family}/${row.difficulty}`) ?? 0) + 1)
    expect(counts.size).toBe(seenFamiliesV2.length * 3)
    expect(Math.max(...counts.values()) - Math.min(...counts.values())).toBeLessThanOrEqual(1)
    const seeds = [...rows.train!, ...rows.eval!].map((row) => row.seed)
    expect(new Set(seeds).size).toBe(seeds.length)
  })

  it('keeps the v1 row format plus env_id, and is byte-stable (pinned sha256)', () => {
    const first = JSON.parse(dataset.serializeRow(dataset.rows('eval_unseen')[0]!))
    expect(Object.keys(first)).toEqual(['prompt', 'family', 'seed', 'difficulty', 'archetype_mix', 'split', 'env_id'])
    expect(first.env_id).toBe('releaseops-v2')
    expect(dataset.serializeRow(dataset.rows('train')[0]!)).toMatch(
      /^\{"prompt": \[\{"role": "system", "content": "You are the release oversight supervisor/,
    )
    for (const [split, hash] of Object.entries(pinned)) {
      expect(sha256(jsonl(split)), split).toBe(hash)
      expect(jsonl(split)).toBe(jsonl(split))
    }
  })
})

describe('releaseops CLI on releaseops-v2', () => {
  const work = mkdtempSync(join(tmpdir(), 'releaseops-v2-cli-'))

  it('`dataset` writes the four split files with the pinned bytes', () => {
    const out = join(work, 'data')
    const result = runCli(['dataset', '--env', 'releaseops-v2', '--out', out])
    expect(result.status, result.stderr).toBe(0)
    for (const [split, hash] of Object.entries(pinned)) expect(sha256(readFileSync(join(out, `${split}.jsonl`)))).toBe(hash)
    expect(result.stdout).toContain('train.jsonl\t2400 rows')
  })

  it('`eval --policy oracle` on the eval split ships safely every time', () => {
    const out = join(work, 'oracle.json')
    const result = runCli(['eval', '--env', 'releaseops-v2', '--dataset', 'eval', '--policy', 'oracle', '--out', out])
    expect(result.status, result.stderr).toBe(0)
    const summary = JSON.parse(readFileSync(out, 'utf8'))
    expect(summary.oracle.overall).toMatchObject({ count: 500, safe_ship_rate: 1, unsafe_ship_rate: 0, missed_deadline_rate: 0 })
    for (const family of familiesV2) expect(summary.oracle.by_family[family].safe_ship_rate).toBe(1)
  })

  it('`env render` prints the reset view with every fact unverified; `env check` passes', () => {
    const render = runCli([
      'env',
      'render',
      '--env',
      'releaseops-v2',
      '--family',
      'careful_workers_disagree',
      '--difficulty',
      'high',
      '--seed',
      '5',
    ])
    expect(render.status, render.stderr).toBe(0)
    const view = JSON.parse(render.stdout)
    expect(Object.values(view.release_checks)).toEqual(['unverified', 'unverified', 'unverified', 'unverified'])
    expect(render.stdout.startsWith('{\n  "phase": "triage",')).toBe(true)
    const bad = runCli(['env', 'render', '--env', 'releaseops-v2', '--archetype-mix', 'careful__lazy__careful'])
    expect(bad.status).toBe(2)
    expect(bad.stderr).toContain('error[invalid_reset_options]')
    const check = runCli(['env', 'check', '--env', 'releaseops-v2', '--fuzz-calls', '500', '--seeds', '2'])
    expect(check.status, check.stdout).toBe(0)
    expect(check.stdout.match(/^ok /gm)).toHaveLength(7)
  })
})
