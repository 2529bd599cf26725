/**
 * The exploit audit shipped with releaseops-v3 (issue 14): on eval rows, every degenerate, named
 * evidence-free and searched blind strategy averages at most 0 and at least 0.3 below the
 * evidence-using baseline (`dissent-first-reader`, issue 27: ≥ 0.75; `evidence-heuristic` still
 * clears 0.5), with the oracle as the ceiling. Modest sizes keep
 * it fast; `releaseops env audit` runs the full split.
 */
import { describe, expect, it } from 'vitest'
import { type LadderEntry, runExploitAudit, wilsonMeanInterval } from '../src/core/testing/exploit-audit.js'
import { envRegistry, makeEnv, policyRegistry } from '../src/envs/index.js'
import { runCli } from './support/run-cli.js'

const envId = 'releaseops-v3'
const registration = envRegistry.get(envId)
const audit = registration.audit!
const dataset = registration.dataset!
// Every third eval row: seen and held-out slices, all families and difficulties.
const resets = dataset
  .rows('eval')
  .filter((_, index) => index % 3 === 0)
  .map((row) => dataset.toResetParams(row))

describe('releaseops-v3 exploit audit', () => {
  it('no cheap strategy comes near the evidence-using baseline', () => {
    const ladder: LadderEntry[] = audit.ladder.map((name) => ({
      name,
      role: name === audit.evidenceBaseline ? 'evidence_baseline' : name === audit.ceiling ? 'ceiling' : 'baseline',
      policy: () => policyRegistry.create(envId, name),
    }))
    const report = runExploitAudit({
      envId,
      createEnv: () => makeEnv(envId),
      resets,
      ladder,
      exploits: audit.exploits(),
      search: { candidates: audit.searchCandidates(), screenResets: 24, finalists: 3 },
      maxExploitReward: audit.maxExploitReward,
      margin: audit.margin,
    })
    const row = (name: string) => report.rows.find((item) => item.name === name)!
    expect(report.failures).toEqual([])
    expect(report.passed).toBe(true)
    expect(report.searched).toBe(168)
    expect(report.evidence_baseline).toBe('dissent-first-reader')
    expect(row('evidence-heuristic').avg_reward).toBeGreaterThanOrEqual(0.5)
    expect(row('dissent-first-reader').avg_reward).toBeGreaterThanOrEqual(0.75)
    expect(row('dissent-first-reader').avg_reward).toBeGreaterThan(row('evidence-heuristic').avg_reward)
    expect(row('oracle').avg_reward).toBeGreaterThan(row('dissent-first-reader').avg_reward)
    const exploits = report.rows.filter((item) => item.group === 'exploit' || item.group === 'search')
    expect(exploits.length).toBeGreaterThanOrEqual(18)
    for (const exploit of exploits) {
      expect(exploit.avg_reward, exploit.name).toBeLessThanOrEqual(0)
      expect(exploit.avg_reward, exploit.name).toBeLessThanOrEqual(row('dissent-first-reader').avg_reward - 0.3)
      expect(exploit.ci95[0]).toBeLessThanOrEqual(exploit.avg_reward)
      expect(exploit.ci95[1]).toBeGreaterThanOrEqual(exploit.avg_reward)
    }
    // The v2 exploits and the no-tool-call model are among them, and now lose.
    expect(row('v2-exploit-each-claim').avg_reward).toBeLessThan(0)
    expect(row('never-call-a-tool').avg_reward).toBeCloseTo(-0.6)
  }, 90_000)

  it('fails an env whose evidence-free strategy reaches the evidence baseline (the audit can fail)', () => {
    const ladder: LadderEntry[] = [
      { name: 'naive', role: 'evidence_baseline', policy: () => policyRegistry.create(envId, 'naive') },
    ]
    const report = runExploitAudit({
      envId,
      createEnv: () => makeEnv(envId),
      resets: resets.slice(0, 30),
      ladder,
      exploits: audit.exploits().filter((item) => item.name === 'approve-everything'),
      maxExploitReward: 0,
      margin: 0.3,
    })
    expect(report.passed).toBe(false)
    expect(report.failures[0]).toContain('approve-everything')
  })

  it('gives the Wilson interval of the safe rate for ±1 outcomes', () => {
    // 30 safe of 100: Wilson [0.219, 0.396] → rewards [−0.562, −0.208].
    const [low, high] = wilsonMeanInterval(-0.4, 100, [-1, 1])
    expect(low).toBeCloseTo(2 * 0.2189 - 1, 2)
    expect(high).toBeCloseTo(2 * 0.3958 - 1, 2)
  })

  it('`releaseops env audit` prints the table beside the ladder and exits 0', () => {
    const result = runCli(['env', 'audit', '--rows', '30', '--screen', '6', '--finalists', '1'])
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout).toContain('exploit audit of releaseops-v3: 30 episodes each; 168 parametrised candidates searched')
    expect(result.stdout).toMatch(/evidence-heuristic\s+ladder/)
    expect(result.stdout).toContain('(evidence baseline: dissent-first-reader)')
    expect(result.stdout).toMatch(/v2-exploit-each-claim\s+exploit\s+-\d\.\d{3}\s+\[/)
    expect(result.stdout).toContain('PASSED')
    const none = runCli(['env', 'audit', '--env', 'grading-v1'])
    expect(none.status).toBe(2)
    expect(none.stderr).toContain('error[no_env_audit]')
  }, 90_000)
})
