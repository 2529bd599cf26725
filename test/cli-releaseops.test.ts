/** The `releaseops` CLI end to end on releaseops-v1: datasets, render, eval, and bad input. */
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from './support/run-cli.js'

const work = mkdtempSync(join(tmpdir(), 'releaseops-cli-'))
const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex')

describe('releaseops dataset', () => {
  it('writes the four v1 split files byte-identical to the original', () => {
    const out = join(work, 'data')
    const result = runCli(['dataset', '--env', 'releaseops-v1', '--out-dir', out])
    expect(result.status, result.stderr).toBe(0)
    expect(sha256(readFileSync(join(out, 'train.jsonl')))).toBe(
      'bbd173e555a6bcdd5cc78494831ede45ace6ab467c64e2d0078f199514bd54a4',
    )
    expect(sha256(readFileSync(join(out, 'eval_seen.jsonl')))).toBe(
      'c476282cc111ca78635bb7891ad7d873f4e2000436617d8d395349f770ff6a0f',
    )
    expect(sha256(readFileSync(join(out, 'eval_unseen.jsonl')))).toBe(
      '1fc5347b999537b812155ea06d624f6129fab5dbe3626b822d49b9498ab7aa32',
    )
    expect(sha256(readFileSync(join(out, 'eval.jsonl')))).toBe('4b4e08b3eb82cf4bb2d41d4e38968bc914924025e3ff7c4c903f80c149fed3cb')
    expect(result.stdout.trim().split('\n')).toHaveLength(4)
  })
})

describe('releaseops env render', () => {
  it("prints exactly the original's reset observation text and nothing else", () => {
    const result = runCli([
      'env',
      'render',
      '--env',
      'releaseops-v1',
      '--family',
      'green_ci_disabled_payment_test',
      '--seed',
      '42',
    ])
    expect(result.status, result.stderr).toBe(0)
    // sha256[:16] of the original env's reset text for this episode (original-traces.jsonl, first line).
    expect(sha256(result.stdout).slice(0, 16)).toBe(
      JSON.parse(readFileSync('src/envs/releaseops/v1/__fixtures__/original-traces.jsonl', 'utf8').split('\n')[0] as string)
        .reset_sha,
    )
    expect(result.stdout.startsWith('{\n  "phase": "triage",')).toBe(true)
    expect(result.stdout.endsWith('}')).toBe(true)
  })

  it('rejects an unknown family with a coded error and exit code 2', () => {
    const result = runCli(['env', 'render', '--env', 'releaseops-v1', '--family', 'nope', '--seed', '1'])
    expect(result.status).toBe(2)
    expect(result.stderr).toContain('error[invalid_reset_options]')
    expect(result.stdout).toBe('')
  })

  it('rejects an unknown env id', () => {
    const result = runCli(['env', 'render', '--env', 'releaseops-v9'])
    expect(result.status).toBe(2)
    expect(result.stderr).toContain('error[unknown_env]')
  })
})

describe('releaseops eval', () => {
  it('prints the baseline table and writes a summary keyed by policy plus one line per episode', () => {
    const summaryPath = join(work, 'summary.json')
    const episodesPath = join(work, 'episodes.jsonl')
    const result = runCli([
      'eval',
      '--env',
      'releaseops-v1',
      '--dataset',
      'eval',
      '--out',
      summaryPath,
      '--episodes-out',
      episodesPath,
      '--workers',
      '2',
    ])
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/phase-aware-rule\s+overall\s+50\s+0\.312\s+0\.560/)
    const summary = JSON.parse(readFileSync(summaryPath, 'utf8'))
    expect(Object.keys(summary)).toEqual(['naive', 'rule', 'phase-aware-rule'])
    expect(summary.rule.overall).toMatchObject({ count: 50, avg_reward: -0.45, safe_ship_rate: 0.24, truncated_rate: 0 })
    expect(summary.rule.overall.ci95.safe_ship_rate).toEqual([0.143, 0.374])
    expect(Object.keys(summary.naive.by_split)).toEqual(['eval_seen', 'eval_unseen'])
    expect(Object.keys(summary.naive.by_family)).toHaveLength(4)
    expect(summary.naive.run).toMatchObject({
      env_id: 'releaseops-v1',
      dataset: 'eval',
      rows: 50,
      dataset_sha256: '4b4e08b3eb82cf4bb2d41d4e38968bc914924025e3ff7c4c903f80c149fed3cb',
    })
    const episodes = readFileSync(episodesPath, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(episodes).toHaveLength(150)
    const first = episodes[0]
    for (const key of [
      'family',
      'seed',
      'difficulty',
      'archetype_mix',
      'policy',
      'reward',
      'terminal_reason',
      'metrics',
      'steps',
    ]) {
      expect(first, key).toHaveProperty(key)
    }
    expect(first.steps.length).toBe(first.step_count)
    expect(first.steps[0]).toMatchObject({ call: { name: 'approve_proposal' }, terminated: expect.any(Boolean) })
  })

  it('gives the same numbers for a JSONL file as for the split name', () => {
    const file = join(work, 'eval-copy.jsonl')
    runCli(['dataset', '--env', 'releaseops-v1', '--out-dir', work, '--splits', 'eval'])
    writeFileSync(file, readFileSync(join(work, 'eval.jsonl')))
    const fromFile = join(work, 'from-file.json')
    const fromSplit = join(work, 'from-split.json')
    expect(runCli(['eval', '--env', 'releaseops-v1', '--dataset', file, '--policy', 'rule', '--out', fromFile]).status).toBe(0)
    expect(runCli(['eval', '--env', 'releaseops-v1', '--dataset', 'eval', '--policy', 'rule', '--out', fromSplit]).status).toBe(0)
    const strip = (path: string) => {
      const { run: _run, ...rest } = JSON.parse(readFileSync(path, 'utf8')).rule
      return rest
    }
    expect(strip(fromFile)).toEqual(strip(fromSplit))
  })

  it('stops on a bad dataset file with the file, line and field', () => {
    const file = join(work, 'bad.jsonl')
    writeFileSync(file, '{"seed": 4190, "family": "careful_qa_safe"}\n{"seed": "x"}\nnot json\n')
    const result = runCli(['eval', '--env', 'releaseops-v1', '--dataset', file])
    expect(result.status).toBe(2)
    expect(result.stderr).toContain('error[invalid_dataset]')
    expect(result.stderr).toContain(`${file}:2:seed`)
    expect(result.stderr).toContain(`${file}:3`)
  })

  it('rejects unknown policies and bad option values', () => {
    const unknown = runCli(['eval', '--policy', 'oracle-of-delphi'])
    expect(unknown.status).toBe(2)
    expect(unknown.stderr).toContain('error[unknown_policy]')
    const workers = runCli(['eval', '--workers', '0'])
    expect(workers.status).not.toBe(0)
    expect(workers.stderr).toContain('expected a positive integer')
  })
})

describe('releaseops env list and check', () => {
  it('lists the env with its tools and policies', () => {
    const result = runCli(['env', 'list'])
    expect(result.status).toBe(0)
    expect(result.stdout).toContain('releaseops-v1')
    expect(result.stdout).toContain('inspect_pr_diff')
    expect(result.stdout).toContain('phase-aware-rule')
  })

  it('runs the conformance suite', () => {
    const result = runCli(['env', 'check', '--env', 'releaseops-v1', '--fuzz-calls', '500', '--seeds', '2'])
    expect(result.status, result.stdout).toBe(0)
    expect(result.stdout.match(/^ok /gm)).toHaveLength(7)
  })
})
