/**
 * Honest intervals (issue 34): `releaseops eval --repeat 10` of a deterministic policy replays the same
 * 500 rows ten times. Counting the 5,000 episodes as independent would narrow every interval about
 * threefold; the summary clusters episodes by row, so the intervals are those of the 500 distinct rows
 * and the report says what they rest on.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { wilsonInterval } from '../src/eval/wilson-interval.js'
import { runCli } from './support/run-cli.js'

const work = mkdtempSync(join(tmpdir(), 'releaseops-repeat-'))

interface Block {
  count: number
  safe_ship_rate: number
  ci95: Record<string, [number, number] | null>
  ci95_basis: { method: string; rows: number; episodes: number; effective_n?: Record<string, number> }
}
type Summary = Record<string, { overall: Block; by_split: Record<string, Block> }>

function evalRule(repeat: number): { summary: Summary; stdout: string } {
  const out = join(work, `rule-x${repeat}.json`)
  const result = runCli(['eval', '--policy', 'rule', '--no-ceiling', '--repeat', String(repeat), '--out', out])
  expect(result.status, result.stderr).toBe(0)
  return { summary: JSON.parse(readFileSync(out, 'utf8')) as Summary, stdout: result.stdout }
}

describe('eval --repeat on a deterministic policy', () => {
  it('does not shrink its intervals: they rest on the distinct rows, and the report says so', () => {
    const once = evalRule(1)
    const ten = evalRule(10)
    const [onceBlock, tenBlock] = [once.summary.rule?.overall as Block, ten.summary.rule?.overall as Block]
    expect(onceBlock.ci95_basis).toEqual({ method: 'wilson', rows: 500, episodes: 500 })
    expect(tenBlock.count).toBe(5000)
    expect(tenBlock.safe_ship_rate).toBe(onceBlock.safe_ship_rate)
    expect(tenBlock.ci95_basis).toMatchObject({ method: 'wilson_row_clustered', rows: 500, episodes: 5000 })
    expect(Object.values(tenBlock.ci95_basis.effective_n ?? {})).toEqual([500, 500, 500, 500])
    expect(tenBlock.ci95).toEqual(onceBlock.ci95)
    for (const split of ['eval_seen', 'eval_unseen']) {
      expect(ten.summary.rule?.by_split[split]?.ci95).toEqual(once.summary.rule?.by_split[split]?.ci95)
      expect(ten.summary.rule?.by_split[split]?.ci95_basis.rows).toBe(split === 'eval_seen' ? 300 : 200)
    }
    // The interval the 5,000 episodes would claim if they were independent, for contrast: far narrower.
    const safe = Math.round(onceBlock.safe_ship_rate * 500)
    const claimed = wilsonInterval(safe * 10, 5000) as [number, number]
    const [low, high] = tenBlock.ci95.safe_ship_rate as [number, number]
    expect(claimed[1] - claimed[0]).toBeLessThan((high - low) / 2.5)
    expect(ten.stdout).toContain('rule (5000 episodes of 500 distinct rows, clustered by row: they count as 500 trials)')
    expect(once.stdout).toContain('rule (500 rows)')
  })
})
