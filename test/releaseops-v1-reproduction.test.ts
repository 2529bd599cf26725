/**
 * The v1 acceptance bar: the original's four dataset files byte for byte (sha256 of the reference
 * files) and every number of its eval_results.json, plus the figures docs/original-arena.md §5/§10 reports.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { runPolicyEpisode } from '../src/agent/run-policy-episode.js'
import type { ToolCall } from '../src/core/env/env-api.js'
import { generatorPolicy } from '../src/core/policy/policy.js'
import { pythonRound } from '../src/core/python/python-round.js'
import { envRegistry, makeEnv } from '../src/envs/index.js'
import original from '../src/envs/releaseops/v1/__fixtures__/original-eval-results.json' with { type: 'json' }
import type { ReleaseOpsV1Env, ReleaseOpsV1Observation } from '../src/envs/releaseops/v1/releaseops-env.js'
import { buildSummary } from '../src/eval/build-summary.js'
import { runEval } from '../src/eval/run-eval.js'

const dataset = envRegistry.get('releaseops-v1').dataset!

/** sha256 of the original's train/eval_seen/eval_unseen/eval.jsonl at `b171e40` (docs/original-arena.md §1). */
const referenceSha256: Record<string, string> = {
  train: 'bbd173e555a6bcdd5cc78494831ede45ace6ab467c64e2d0078f199514bd54a4',
  eval_seen: 'c476282cc111ca78635bb7891ad7d873f4e2000436617d8d395349f770ff6a0f',
  eval_unseen: '1fc5347b999537b812155ea06d624f6129fab5dbe3626b822d49b9498ab7aa32',
  eval: '4b4e08b3eb82cf4bb2d41d4e38968bc914924025e3ff7c4c903f80c149fed3cb',
}

const jsonl = (split: string) =>
  dataset
    .rows(split)
    .map((row) => `${dataset.serializeRow(row)}\n`)
    .join('')

describe('releaseops-v1 datasets', () => {
  for (const [split, sha256] of Object.entries(referenceSha256)) {
    it(`${split}.jsonl is byte-identical to the original`, () => {
      expect(createHash('sha256').update(jsonl(split)).digest('hex')).toBe(sha256)
    })
  }

  it('has the documented family mix and first rows', () => {
    const count = (split: string) => {
      const counts: Record<string, number> = {}
      for (const row of dataset.rows(split)) counts[row.family as string] = (counts[row.family as string] ?? 0) + 1
      return counts
    }
    expect(count('train')).toEqual({ careful_qa_safe: 46, green_ci_disabled_payment_test: 46, qa_undercalls_p1_checkout_bug: 28 })
    expect(count('eval_seen')).toEqual({
      qa_undercalls_p1_checkout_bug: 16,
      green_ci_disabled_payment_test: 12,
      careful_qa_safe: 2,
    })
    expect(
      dataset
        .rows('train')
        .slice(0, 3)
        .map((row) => row.seed),
    ).toEqual([4190, 6876, 1794])
  })
})

const policyKeys = { naive: 'naive', rule: 'rule', 'phase-aware-rule': 'phase_aware_rule' } as const

describe('releaseops-v1 baselines reproduce outputs/eval_results.json', () => {
  for (const workers of [1, 2]) {
    it(`every number, with ${workers} worker(s)`, async () => {
      const records = await runEval({
        envId: 'releaseops-v1',
        rows: dataset.rows('eval'),
        policies: Object.keys(policyKeys),
        workers,
        chunkSize: 7,
      })
      const summary = buildSummary(records, dataset.groupBy)
      for (const [ours, theirs] of Object.entries(policyKeys)) {
        const slices = {
          seen: summary[ours]?.by_split?.eval_seen,
          unseen: summary[ours]?.by_split?.eval_unseen,
          overall: summary[ours]?.overall,
        }
        for (const [slice, block] of Object.entries(slices)) {
          const originalSlice = (original as unknown as Record<string, Record<string, unknown>>)[slice]
          const expected = originalSlice?.[theirs] as Record<string, number>
          expect(block?.count).toBe(originalSlice?.count)
          for (const [key, value] of Object.entries(expected)) expect(block?.[key], `${ours} ${slice} ${key}`).toBe(value)
          expect(block?.truncated_rate).toBe(0)
        }
      }
      expect(summary.naive?.overall.avg_reward).toBe(original.naive_avg)
      expect(summary.rule?.overall.avg_reward).toBe(original.rule_avg)
    })
  }
})

describe('releaseops-v1 figures of docs/original-arena.md', () => {
  it('the duplicate-id train seeds end truncated under the step limit instead of hanging', async () => {
    const rows = dataset.rows('train')
    const records = await runEval({ envId: 'releaseops-v1', rows, policies: ['rule', 'phase-aware-rule'] })
    const truncated = records.filter((record) => record.truncated).map((record) => [record.policy, record.row.seed])
    expect(truncated).toEqual([
      ['rule', 8047],
      ['phase-aware-rule', 8047],
    ])
    for (const record of records.filter((item) => item.truncated)) expect(record.step_count).toBe(64)
  })

  it('train matches §10: naive −0.233/.383 on all rows; rule 0.371/.655 and phase-aware 0.447/.655 without seed 8047', async () => {
    // Naive never hangs, so the documented naive figure covers all 120 rows (46/120 = .383).
    const all = buildSummary(await runEval({ envId: 'releaseops-v1', rows: dataset.rows('train'), policies: ['naive'] }), [])
    expect([all.naive?.overall.avg_reward, all.naive?.overall.safe_ship_rate]).toEqual([-0.233, 0.383])
    const rows = dataset.rows('train').filter((row) => row.seed !== 8047)
    const summary = buildSummary(await runEval({ envId: 'releaseops-v1', rows, policies: ['rule', 'phase-aware-rule'] }), [])
    expect([summary.rule?.overall.avg_reward, summary.rule?.overall.safe_ship_rate]).toEqual([0.371, 0.655])
    expect([summary['phase-aware-rule']?.overall.avg_reward, summary['phase-aware-rule']?.overall.safe_ship_rate]).toEqual([
      0.447, 0.655,
    ])
  })

  it('the documented oracle scores 0.856 on eval (41/50 safe), 0.873 seen, 0.83 unseen, 0.799 train, 0.712 without inspecting', () => {
    // Inspect the violating proposal's first ref, hold, approve the revision; careful_qa_safe ships at once.
    const oracle = (inspect: boolean) =>
      generatorPolicy<ReleaseOpsV1Observation>('spec-oracle', function* ({ env, observation }) {
        const hidden = (env as unknown as { unwrapped: ReleaseOpsV1Env }).unwrapped.hiddenState() as {
          proposals: { id: string; refs: string[]; request: string; latent_violation_id: string | null }[]
        }
        const violating = hidden.proposals.find((proposal) => proposal.latent_violation_id)
        if (!violating) {
          const ship = observation.view.proposals.find((proposal) => proposal.request === 'ship_release_candidate')
          yield { name: 'approve_proposal', arguments: { proposal_id: ship?.id } }
          return
        }
        const ref = violating.refs[0] as string
        if (inspect) {
          const tool = ref.startsWith('pr_')
            ? ['inspect_pr_diff', 'pr_id']
            : ref.startsWith('ci_')
              ? ['inspect_ci_run', 'run_id']
              : ['inspect_ticket', 'ticket_id']
          yield { name: tool[0], arguments: { [tool[1] as string]: ref } } as ToolCall
        }
        const held = yield { name: 'hold_release', arguments: { reason_code: 'awaiting_fix' } }
        const revised = held.view.proposals[0]
        if (revised) yield { name: 'approve_proposal', arguments: { proposal_id: revised.id } }
      })
    const average = (split: string, inspect = true) => {
      const env = makeEnv<ReleaseOpsV1Observation>('releaseops-v1')
      const rewards = dataset
        .rows(split)
        .map((row) => runPolicyEpisode({ env, policy: oracle(inspect), reset: dataset.toResetParams(row) }))
      const total = rewards.reduce((sum, result) => sum + result.reward, 0)
      return {
        avg: pythonRound(total / rewards.length, 3),
        safe: rewards.filter((result) => result.info.terminal_reason === 'safe_ship').length,
      }
    }
    expect(average('eval')).toEqual({ avg: 0.856, safe: 41 })
    expect(average('eval_seen').avg).toBe(0.873)
    expect(average('eval_unseen').avg).toBe(0.83)
    expect(average('train').avg).toBe(0.799)
    expect(average('eval', false).avg).toBe(0.712)
  })
})
