/**
 * The exploit audit shipped with releaseops-v3 (issue 14): on eval rows, every degenerate, named
 * evidence-free and searched blind strategy averages at most 0 and at least 0.3 below the
 * evidence-using baseline (`dissent-first-reader`, issue 27: ≥ 0.75; `evidence-heuristic` still
 * clears 0.5), with the oracle as the ceiling. Modest sizes keep
 * it fast; `releaseops env audit` runs the full split.
 */
import { describe, expect, it } from 'vitest'
import { envAuditOptions } from '../src/core/testing/env-audit-options.js'
import { type LadderEntry, runExploitAudit, wilsonMeanInterval } from '../src/core/testing/exploit-audit.js'
import { envRegistry, makeEnv, policyRegistry } from '../src/envs/index.js'
import { seenFamiliesV3 } from '../src/envs/releaseops/v3/families/index.js'
import { runCli } from './support/run-cli.js'

const envId = 'releaseops-v3'
const registration = envRegistry.get(envId)
const audit = registration.audit!
const dataset = registration.dataset!
// Every third eval row: seen and held-out slices, all families and difficulties.
const rows = dataset.rows('eval').filter((_, index) => index % 3 === 0)
const resets = rows.map((row) => dataset.toResetParams(row))
/** The audit as the CLI runs it, on those rows, its memoriser fitted on the first 360 train rows. */
const auditOptions = () =>
  envAuditOptions({
    envId,
    registration,
    createEnv: () => makeEnv(envId),
    policy: (name) => policyRegistry.create(envId, name),
    rows,
    screen: 24,
    finalists: 3,
    fitRows: 360,
  })
/** Only what the memoriser check needs: the evidence baseline and the memoriser, no exploits or search. */
const memoriserOnly = (options: ReturnType<typeof auditOptions>) => ({
  ...options,
  ladder: options.ladder.filter((entry) => entry.role === 'evidence_baseline'),
  exploits: [],
  search: { candidates: [], screenResets: 0, finalists: 0 },
})

describe('releaseops-v3 exploit audit', () => {
  it('no cheap strategy comes near the evidence-using baseline', () => {
    const report = runExploitAudit(auditOptions())
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
    // The memoriser: near the ceiling on seen rows, caught by the held-out families, not by the held-out mix.
    const slice = (name: string) => report.slices.find((item) => item.name === name)!
    expect(report.slices.map((item) => item.name)).toEqual(['eval_seen', 'held-out mix', 'held-out families'])
    expect(slice('eval_seen').scores['dissent-first-reader']!.episodes).toBe(100)
    expect(slice('eval_seen').scores.memoriser!.avg_reward).toBeGreaterThan(0.9)
    expect(slice('held-out families').memoriser_drop).toBeGreaterThanOrEqual(0.3)
    expect(slice('held-out families').passed).toBe(true)
    expect(slice('held-out mix').catches_memoriser).toBe(false)
    expect(slice('held-out mix').memoriser_drop).toBeLessThan(0.3)
    expect(Object.keys(report.memoriser!.lookup)).toContain('careful_qa_safe/high')

    // Reward against safety (issue 34): every played policy, perturbed readers included, with its shares.
    const safety = report.reward_safety!
    const perturbed = report.rows.filter((item) => item.group === 'perturbed')
    expect(perturbed).toHaveLength(18)
    expect(safety.policies).toBe(report.rows.length)
    for (const item of report.rows) expect(item.unsafe_rate! + item.safe_rate!, item.name).toBeLessThanOrEqual(1)
    expect(row('approve-everything').unsafe_rate).toBeGreaterThan(0.5)
    expect(row('dissent-first-reader~reckless@0.6').unsafe_rate).toBeGreaterThan(row('dissent-first-reader').unsafe_rate!)
    expect(row('dissent-first-reader~over-blocking@0.6').unsafe_rate).toBeLessThanOrEqual(
      row('dissent-first-reader').unsafe_rate!,
    )
    // v3 ranks by safe ships, hardly by unsafe ones: shipping blind outscores doing nothing.
    expect(safety.safe.spearman).toBeGreaterThan(0.9)
    expect(safety.low_unsafe.spearman).toBeLessThan(0.3)
    expect(safety.discordant).toContainEqual(
      expect.objectContaining({ higher: 'approve-everything', lower: 'never-call-a-tool', net_behind: true }),
    )
    expect(safety.discordant_net_behind).toBe(safety.discordant.filter((pair) => pair.net_behind).length)
    // Per episode, caution can cost more than an unsafe ship; the penalty that would reverse that makes
    // (almost) doing nothing the best evidence-free strategy, and the audit would still pass.
    expect(safety.episodes.unsafe_always_worse).toBe(false)
    expect(safety.episodes.worst_cautious!.reward).toBeLessThan(safety.episodes.best_unsafe!.reward)
    expect(safety.episodes.penalty_needed).toBeLessThanOrEqual(-2)
    expect(safety.best_exploit!.spread).toBeGreaterThan(0.5)
    const needed = safety.at_penalty_needed!
    expect(needed.low_unsafe.spearman).toBeGreaterThan(safety.low_unsafe.spearman! + 0.3)
    // There the best evidence-free strategy is to (all but) never ship: never-call-a-tool's −0.6 or within 0.01 of it.
    expect(Math.abs(needed.best_exploit!.avg_reward - row('never-call-a-tool').avg_reward)).toBeLessThanOrEqual(0.01)
    expect(row(needed.best_exploit!.name).safe_rate! + row(needed.best_exploit!.name).unsafe_rate!).toBeLessThan(0.25)
    expect(needed.exploits_below_threshold).toBe(true)
  }, 120_000)

  it('the wide split gives every slice a 95% half-width of at most 0.1 for every ladder policy', () => {
    const wideRows = dataset.rows('eval_wide')
    const options = envAuditOptions({
      envId,
      registration,
      createEnv: () => makeEnv(envId),
      policy: (name) => policyRegistry.create(envId, name),
      rows: wideRows,
      screen: 0,
      finalists: 0,
    })
    const { memoriser: _memoriser, ...withoutMemoriser } = options
    const report = runExploitAudit({
      ...withoutMemoriser,
      exploits: [],
      perturbed: [],
      search: { candidates: [], screenResets: 0, finalists: 0 },
    })
    expect(report.slices.map((item) => [item.name, item.scores.naive!.episodes])).toEqual([
      ['eval_seen', 1000],
      ['held-out mix', 1000],
      ['held-out families', 1000],
    ])
    for (const slice of report.slices)
      for (const [policy, score] of Object.entries(slice.scores))
        expect((score.ci95[1] - score.ci95[0]) / 2, `${policy} on ${slice.name}`).toBeLessThanOrEqual(0.1)
  }, 180_000)

  it('fails when a held-out slice stops catching the memoriser (a leaky slice: held-out families replaced by seen ones)', () => {
    const options = auditOptions()
    const families = options.slices!.find((item) => item.name === 'held-out families')!
    const leaky = { ...options, resets: [...options.resets], keys: [...options.memoriser!.keys] }
    for (const index of families.indices) {
      const reset = options.resets[index]!
      const family = seenFamiliesV3[index % seenFamiliesV3.length] as string
      leaky.resets[index] = { ...reset, options: { ...reset.options, family } }
      leaky.keys[index] = [`${family}/${reset.options!.difficulty}`, String(reset.options!.difficulty)]
    }
    const report = runExploitAudit({ ...memoriserOnly(leaky), memoriser: { ...options.memoriser!, keys: leaky.keys } })
    const slice = report.slices.find((item) => item.name === 'held-out families')!
    expect(slice.memoriser_drop).toBeLessThan(0.3)
    expect(slice.passed).toBe(false)
    expect(report.passed).toBe(false)
    expect(report.failures).toEqual([expect.stringContaining('the memoriser drops only')])
    expect(report.failures[0]).toContain('held-out families')
  }, 120_000)

  it('does not gate the held-out mix: gated, it would fail as it is (the memoriser skips the re-runs it brings)', () => {
    const options = auditOptions()
    const slices = options.slices!.map((item) => (item.name === 'held-out mix' ? { ...item, catchesMemoriser: true } : item))
    const report = runExploitAudit({ ...memoriserOnly(options), slices })
    expect(report.slices.find((item) => item.name === 'held-out mix')!.memoriser_drop).toBeLessThan(0.3)
    expect(report.passed).toBe(false)
    expect(report.failures).toEqual([expect.stringContaining('on held-out mix')])
  }, 120_000)

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
    const result = runCli(['env', 'audit', '--rows', '30', '--screen', '6', '--finalists', '1', '--fit-rows', '60'])
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout).toContain('exploit audit of releaseops-v3: 30 episodes each; 168 parametrised candidates searched')
    expect(result.stdout).toMatch(/evidence-heuristic\s+ladder/)
    expect(result.stdout).toContain('(evidence baseline: dissent-first-reader)')
    expect(result.stdout).toMatch(/memoriser\s+memoriser\s+\d\.\d{3}/)
    expect(result.stdout).toContain('held-out families: ')
    expect(result.stdout).toMatch(/v2-exploit-each-claim\s+exploit\s+-\d\.\d{3}\s+\[/)
    expect(result.stdout).toContain('PASSED')
    expect(result.stdout).toMatch(/reward against safety over \d+ played policies/)
    expect(result.stdout).toMatch(/rank agreement of reward with a low unsafe rate: Spearman -?\d\.\d{3}, Kendall -?\d\.\d{3}/)
    expect(result.stdout).toMatch(/discordant pairs \(the higher reward ships unsafe more often\): \d+/)
    const none = runCli(['env', 'audit', '--env', 'grading-v1'])
    expect(none.status).toBe(2)
    expect(none.stderr).toContain('error[no_env_audit]')
  }, 90_000)
})
