/**
 * releaseops-v2 datasets and CLI: the split definitions (sizes, families, mixes, disjoint seeds), byte
 * stability (pinned sha256, the same through the library and the CLI), and the CLI on v2: `dataset`,
 * `env render`, `env check` and `eval --policy oracle` (safe_ship_rate 1.0). The split checks are shared
 * with v3: support/split-dataset-checks.ts.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { defaultEnvId, envRegistry } from '../src/envs/index.js'
import { heldOutMixes, trainMixes } from '../src/envs/releaseops/arena/archetype-mixes.js'
import { familiesV2, heldOutFamiliesV2, seenFamiliesV2 } from '../src/envs/releaseops/arena/families/index.js'
import { runCli } from './support/run-cli.js'
import { describeSplitDataset, sha256 } from './support/split-dataset-checks.js'

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
})

describeSplitDataset({
  envId: 'releaseops-v2',
  families: familiesV2,
  seenFamilies: seenFamiliesV2,
  heldOutFamilies: heldOutFamiliesV2,
  trainMixes,
  heldOutMixes,
  pinned,
})

describe('releaseops CLI on releaseops-v2', () => {
  const work = mkdtempSync(join(tmpdir(), 'releaseops-v2-cli-'))

  it('`dataset` writes the four split files with the pinned bytes', () => {
    const out = join(work, 'data')
    const result = runCli(['dataset', '--env', 'releaseops-v2', '--out-dir', out])
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
