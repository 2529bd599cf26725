/**
 * Headroom on releaseops-v2 (issue 3, "must show"): on the eval split the best hand-written baseline
 * averages at least 0.2 below the oracle, and the held-out families are harder for it than the seen
 * ones. A test-only evidence reader (not a registered baseline) shows the gap rewards reading evidence:
 * it beats every baseline by a wide margin and still stays below the oracle.
 */
import { describe, expect, it } from 'vitest'
import { runPolicyEpisode } from '../src/agent/run-policy-episode.js'
import { generatorPolicy } from '../src/core/policy/policy.js'
import { envRegistry, makeEnv } from '../src/envs/index.js'
import { verifiedViolations } from '../src/envs/releaseops/arena/facts.js'
import { heldOutFamiliesV2, seenFamiliesV2 } from '../src/envs/releaseops/arena/families/index.js'
import { type RuleId, shortRuleId } from '../src/envs/releaseops/shared/safety-rules.js'
import type { ReleaseOpsV2Observation } from '../src/envs/releaseops/v2/releaseops-env.js'
import { buildSummary } from '../src/eval/build-summary.js'
import { runEval } from '../src/eval/run-eval.js'

const envId = 'releaseops-v2'
const baselines = ['naive', 'rule', 'phase-aware-rule']
const mean = (values: readonly number[]) => values.reduce((total, value) => total + value, 0) / values.length

const inspect = (ref: string) =>
  ref.startsWith('pr_')
    ? { name: 'inspect_pr_diff', arguments: { pr_id: ref } }
    : ref.startsWith('ci_run_')
      ? { name: 'inspect_ci_run', arguments: { run_id: ref } }
      : { name: 'inspect_ticket', arguments: { ticket_id: ref } }

/** Reads the evidence of every ship and every claim while it can, blocks what is verified broken, holds, ships when clean. */
const evidenceReader = generatorPolicy<ReleaseOpsV2Observation>('evidence-reader', function* ({ observation: first }) {
  let observation = first
  const inspected = new Set<string>()
  for (;;) {
    const view = observation.view
    const unresolved = view.proposals.filter((proposal) => proposal.status === 'unresolved')
    const ships = unresolved.filter((proposal) => proposal.request === 'ship_release_candidate')
    const claimants = unresolved.filter((proposal) => Object.keys(proposal.claims).length > 0)
    const ref = [...ships, ...claimants].flatMap((proposal) => proposal.refs).find((item) => !inspected.has(item))
    if (ref !== undefined && view.evidence_actions_remaining > 0 && view.review_budget_remaining > 0) {
      inspected.add(ref)
      observation = yield inspect(ref)
      continue
    }
    const broken: RuleId[] = verifiedViolations(view.release_checks)
    if (broken.length === 0 && ships[0]) {
      observation = yield { name: 'approve_proposal', arguments: { proposal_id: ships[0].id } }
      continue
    }
    for (const rule of broken) {
      const target = unresolved.find(
        (proposal) =>
          (proposal.request === 'ship_release_candidate' || proposal.claims[rule] === 'pass') &&
          observation.view.proposals.some((item) => item.id === proposal.id && item.status === 'unresolved'),
      )
      if (!target || view.hours_to_deadline <= 12) continue
      observation = yield { name: 'block_proposal', arguments: { proposal_id: target.id, rule_id: shortRuleId(rule) } }
      if (observation.result?.updated_observation !== undefined) break
    }
    if (observation.view.phase_index === view.phase_index)
      observation = yield { name: 'hold_release', arguments: { reason_code: 'awaiting_fix' } }
  }
})

describe('releaseops-v2 headroom on the eval split', () => {
  it('the best baseline is at least 0.2 below the oracle, and held-out families are harder for it', async () => {
    const dataset = envRegistry.get(envId).dataset!
    const rows = dataset.rows('eval')
    expect(rows.length).toBeGreaterThanOrEqual(400)
    const records = await runEval({ envId, rows, policies: [...baselines, 'oracle'], workers: 1 })
    const summary = buildSummary(records, ['split', 'family'])
    const oracle = summary.oracle!
    expect(oracle.overall.safe_ship_rate).toBe(1)
    const best = baselines
      .map((name) => ({ name, block: summary[name]! }))
      .sort((a, b) => b.block.overall.avg_reward - a.block.overall.avg_reward)[0]!
    expect(best.name).toBe('phase-aware-rule')
    expect(oracle.overall.avg_reward - best.block.overall.avg_reward).toBeGreaterThanOrEqual(0.2)
    // Held-out families against the seen split, row-weighted, and each held-out family on its own.
    const rewardsOf = (predicate: (row: Record<string, unknown>) => boolean) =>
      records.filter((record) => record.policy === best.name && predicate(record.row)).map((record) => record.reward)
    const seen = mean(rewardsOf((row) => row.split === 'eval_seen'))
    const heldOut = mean(rewardsOf((row) => heldOutFamiliesV2.includes(row.family as never)))
    expect(heldOut).toBeLessThan(seen)
    for (const family of heldOutFamiliesV2) expect(best.block.by_family?.[family]?.avg_reward).toBeLessThan(seen)
    expect(seenFamiliesV2.every((family) => summary.oracle?.by_family?.[family]?.safe_ship_rate === 1)).toBe(true)
  })

  it('reading evidence closes much of the gap without reaching the oracle (the env rewards evidence)', async () => {
    const dataset = envRegistry.get(envId).dataset!
    const rows = dataset.rows('eval')
    const env = makeEnv(envId)
    const reader = mean(
      rows.map((row) => runPolicyEpisode({ env, policy: evidenceReader, reset: dataset.toResetParams(row) }).reward),
    )
    const summary = buildSummary(await runEval({ envId, rows, policies: ['phase-aware-rule', 'oracle'] }), [])
    expect(reader).toBeGreaterThan(summary['phase-aware-rule']!.overall.avg_reward + 0.2)
    expect(reader).toBeLessThan(summary.oracle!.overall.avg_reward - 0.2)
  })
})
