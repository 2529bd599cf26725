/** Every eval report shows the env's ceiling (its privileged oracle) and each policy's gap to it. */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from './support/run-cli.js'

const work = mkdtempSync(join(tmpdir(), 'releaseops-ceiling-'))

describe('releaseops eval ceiling', () => {
  it('adds the oracle as the labelled ceiling by default and reports the gaps', () => {
    const out = join(work, 'v2.json')
    const result = runCli([
      'eval',
      '--env',
      'releaseops-v2',
      '--dataset',
      'eval_unseen',
      '--policy',
      'phase-aware-rule',
      '--out',
      out,
    ])
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/^oracle \(ceiling\)\s+overall\s+200\s+1\.\d{3}\s+1\.000/m)
    const summary = JSON.parse(readFileSync(out, 'utf8'))
    expect(Object.keys(summary)).toEqual(['phase-aware-rule', 'oracle'])
    expect(summary.oracle.run.ceiling).toBe(true)
    expect(summary['phase-aware-rule'].run.ceiling).toBeUndefined()
    const gap = summary.oracle.overall.avg_reward - summary['phase-aware-rule'].overall.avg_reward
    expect(result.stdout).toContain(`Gap to the ceiling (avg_reward, overall): phase-aware-rule ${gap.toFixed(3)}`)
  })

  it('leaves the ceiling out with --no-ceiling, and for envs without a privileged policy', () => {
    const without = runCli(['eval', '--env', 'releaseops-v2', '--dataset', 'eval_unseen', '--policy', 'naive', '--no-ceiling'])
    expect(without.status, without.stderr).toBe(0)
    expect(without.stdout).not.toContain('ceiling')
    const v1 = runCli(['eval', '--env', 'releaseops-v1', '--dataset', 'eval_unseen', '--policy', 'naive'])
    expect(v1.status, v1.stderr).toBe(0)
    expect(v1.stdout).not.toContain('ceiling')
  })
})
