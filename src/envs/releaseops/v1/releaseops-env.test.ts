import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { envConformanceCases } from '../../../core/testing/env-conformance.js'
import { makeEnv } from '../../index.js'
import { arenaViewKeys } from '../shared/__fixtures__/view-keys.js'
import type { ProposalViewV1 } from './observation-view.js'
import { ReleaseOpsV1Env, type ReleaseOpsV1Observation } from './releaseops-env.js'
import type { FamilyV1 } from './scenario.js'

const resets = [
  { seed: 42 },
  { seed: 9102, options: { family: 'qa_undercalls_p1_checkout_bug' } },
  { seed: 4935, options: { family: 'release_manager_ship_before_evidence' } },
  { seed: 8528, options: { family: 'careful_qa_safe', difficulty: 'low' } },
  { seed: 8047, options: { family: 'green_ci_disabled_payment_test' } },
]

describe('releaseops-v1 conformance', () => {
  for (const testCase of envConformanceCases<ReleaseOpsV1Observation>({
    createEnv: () => makeEnv('releaseops-v1'),
    resets,
  })) {
    it(testCase.name, () => testCase.run())
  }
})

function reset(family: FamilyV1, seed: number, difficulty = 'medium') {
  const env = new ReleaseOpsV1Env()
  const result = env.reset({ seed, options: { family, difficulty } })
  return { env, view: result.observation.view }
}

const summary = (proposals: ProposalViewV1[]) =>
  proposals.map((proposal) => [proposal.id, proposal.worker, proposal.request, proposal.refs])

describe('releaseops-v1 golden scenarios (docs/original-arena.md §12)', () => {
  it('green_ci seed 42 medium', () => {
    const { env, view } = reset('green_ci_disabled_payment_test', 42)
    expect([view.hours_to_deadline, view.review_budget_remaining]).toEqual([36, 4])
    expect(summary(view.proposals)).toEqual([
      // Distractor tickets are not listed in docs/original-arena.md; these come from CPython's draws for seed 42.
      ['p189', 'dev_95', 'approve_triage', ['ticket_658']],
      ['p325', 'release_manager', 'approve_triage', ['ci_run_1434']],
      ['p350', 'dev_95', 'approve_triage', ['ticket_381']],
      ['p559', 'qa_triage', 'approve_triage', ['ticket_4257']],
      ['p833', 'ci_fixer', 'ship_release_candidate', ['pr_9279', 'ci_run_1434']],
    ])
    expect(view.worker_stats.map((stat) => [stat.worker, stat.recent.correct, stat.recent.incorrect])).toEqual([
      ['dev_95', 4, 2],
      ['dev_95', 3, 0],
      ['ci_fixer', 1, 1],
      ['release_manager', 6, 2],
      ['qa_triage', 9, 2],
    ])
    const artifacts = env.hiddenState().artifacts_db as Record<string, string>
    expect(artifacts.pr_9279).toBe('- assert payment_success == True\n+ # assert payment_success == True')
    expect(artifacts.ci_run_1434).toBe('CI Run Passed. 371 tests passed, 1 skipped.')
  })

  it('qa_undercalls seed 9102 medium', () => {
    const { view } = reset('qa_undercalls_p1_checkout_bug', 9102)
    expect([view.hours_to_deadline, view.review_budget_remaining]).toEqual([24, 5])
    expect(summary(view.proposals).map(([id, worker, request]) => [id, worker, request])).toEqual([
      ['p955', 'qa_triage', 'ship_release_candidate'],
      ['p197', 'dev_77', 'approve_triage'],
      ['p721', 'dev_83', 'approve_triage'],
      ['p771', 'sre', 'hold_release_gate'],
      ['p776', 'release_manager', 'ship_release_candidate'],
    ])
    expect(view.proposals[0]?.refs).toEqual(['ticket_4074'])
    expect(view.proposals[3]?.refs).toEqual(['ticket_4074'])
    expect(view.proposals[4]?.refs).toEqual(['pr_4233'])
  })

  it('careful_qa_safe seed 8528 low', () => {
    const { env, view } = reset('careful_qa_safe', 8528, 'low')
    expect([view.hours_to_deadline, view.review_budget_remaining]).toEqual([24, 6])
    expect(summary(view.proposals)).toEqual([
      ['p427', 'release_manager', 'ship_release_candidate', []],
      ['p864', 'qa_triage', 'approve_triage', ['ticket_6908']],
      ['p292', 'dev_84', 'approve_triage', ['ticket_353']],
    ])
    expect((env.hiddenState().artifacts_db as Record<string, string>).ticket_6908).toBe(
      'Ticket title: Doc updates. Fixed 5 typos.',
    )
  })

  it('release_manager seed 4935 medium', () => {
    const { view } = reset('release_manager_ship_before_evidence', 4935)
    expect([view.hours_to_deadline, view.review_budget_remaining]).toEqual([12, 5])
    expect(summary(view.proposals).map(([id, worker]) => [id, worker])).toEqual([
      ['p545', 'dev_96'],
      ['p704', 'ci_fixer'],
      ['p790', 'dev_86'],
      ['p573', 'sre'],
      ['p870', 'release_manager'],
    ])
    expect(view.proposals[1]?.refs).toEqual(['ci_run_6684'])
    expect(view.proposals[3]?.refs).toEqual(['ticket_1868'])
    expect(view.proposals[4]?.refs).toEqual(['ci_run_6684', 'ticket_1868'])
  })

  it('green_ci seed 8491 medium renders the example observation of docs/original-arena.md §6', () => {
    const { env, view } = reset('green_ci_disabled_payment_test', 8491)
    expect(Object.keys(view)).toEqual(arenaViewKeys)
    expect(view.release_checks).toEqual({
      open_p1_bug: false,
      payment_tests_disabled: true,
      payment_tests_passing: false,
      deploy_checks_passed: true,
    })
    expect([view.phase, view.hours_to_deadline, view.review_budget_remaining, view.evidence_actions_remaining]).toEqual([
      'triage',
      24,
      5,
      2,
    ])
    const ids = view.proposals.map((proposal) => proposal.id)
    expect(ids.slice(0, 3)).toEqual(['p104', 'p152', 'p730'])
    expect(ids.at(-1)).toBe('p254')
    expect(view.proposals).toHaveLength(7)
    expect(view.proposals[2]).toEqual({
      id: 'p730',
      worker: 'ci_fixer',
      claim: 'Resolved the flaky testing issue in payment module.',
      request: 'ship_release_candidate',
      refs: ['pr_1508', 'ci_run_9028'],
      risk: ['payments'],
      confidence: 'high',
      status: 'unresolved',
      possible_rule_violations: ['S2'],
    })
    expect(view.worker_stats[0]).toEqual({ worker: 'dev_23', hint: 'average', recent: { correct: 9, incorrect: 2 } })
    expect(view.worker_stats.slice(-3).map((stat) => [stat.worker, stat.hint, stat.recent])).toEqual([
      ['ci_fixer', 'new_agent', { correct: 3, incorrect: 3 }],
      ['release_manager', 'overconfident', { correct: 6, incorrect: 4 }],
      ['qa_triage', 'careful', { correct: 6, incorrect: 2 }],
    ])
    const artifacts = env.hiddenState().artifacts_db as Record<string, string>
    expect(artifacts.pr_1508).toBe('test_payments.py: commented out the credit_card_auth loop to pass the build.')
    expect(artifacts.ci_run_9028).toBe('CI Run Passed. 482 tests passed, 1 skipped.')
    const text = env.render({ view })
    expect(text).toBe(JSON.stringify(view, null, 2))
    expect(text.length).toBeGreaterThan(1900)
    expect(text.length).toBeLessThan(4000)
  })
})

describe('releaseops-v1 trace (docs/original-arena.md §6)', () => {
  it('reproduces every cumulative reward, message and metric', () => {
    const env = makeEnv<ReleaseOpsV1Observation>('releaseops-v1')
    env.reset({ seed: 42, options: { family: 'release_manager_ship_before_evidence' } })
    const steps: [string, Record<string, string>, number, string?][] = [
      ['inspect_ci_run', { run_id: 'ci_run_4582' }, 0.15],
      ['ask_worker', { worker_id: 'release_manager', question_type: 'risk_summary' }, 0.1],
      ['ask_worker', { worker_id: 'sre', question_type: 'policy_basis' }, -0.15, 'No evidence actions remaining in this phase.'],
      ['block_proposal', { proposal_id: 'p617', rule_id: 'S1' }, -0.4, 'Rule S1 is not relevant for proposal p617.'],
      ['block_proposal', { proposal_id: 'p617', rule_id: 'S3' }, -0.4],
      ['approve_proposal', { proposal_id: 'p127' }, -0.4],
      ['hold_release', { reason_code: 'awaiting_fix' }, -0.4],
      ['inspect_ci_run', { run_id: 'ci_run_4583' }, -0.45],
      ['approve_proposal', { proposal_id: 'p675' }, 0.55],
      ['approve_proposal', { proposal_id: 'p675' }, 0.3, 'Episode is already terminal.'],
    ]
    const results = steps.map(([name, args, cumulative, message]) => {
      const result = env.step({ name, arguments: args })
      expect(result.info.cumulative_reward, name).toBeCloseTo(cumulative, 10)
      expect(result.observation.error?.message, name).toBe(message)
      return result
    })
    const ask = results[1]?.observation.result
    expect(ask).toEqual({
      tool: 'ask_worker',
      worker: 'release_manager',
      question_type: 'risk_summary',
      answer: 'Deploy gate checks are still pending in staging and prod readiness is unverified.',
      refs: expect.any(Array),
      confidence: 'high',
    })
    const held = results[6]?.observation
    expect(held?.view.phase).toBe('deploy_gate')
    expect([held?.view.hours_to_deadline, held?.view.evidence_actions_remaining, held?.view.review_budget_remaining]).toEqual([
      24, 2, 2,
    ])
    expect(summary(held?.view.proposals ?? [])).toEqual([
      ['p675', 'release_manager', 'ship_release_candidate', ['pr_1', 'ci_run_4583']],
    ])
    expect(Object.values(held?.view.release_checks ?? {})).toEqual([false, false, true, true])
    expect(
      env
        .render(held as ReleaseOpsV1Observation)
        .startsWith('{\n  "action": "hold_release",\n  "terminal": false,\n  "updated_observation": {\n'),
    ).toBe(true)
    expect(results[8]?.terminated).toBe(true)
    expect(results[8]?.observation.result).toEqual({
      action: 'approve',
      proposal: 'p675',
      terminal: true,
      episode_end_reason: 'safe_ship',
    })
    expect(env.render(results[8]?.observation as ReleaseOpsV1Observation)).toBe(
      '{"action": "approve", "proposal": "p675", "terminal": true, "episode_end_reason": "safe_ship"}',
    )
    expect(results[9]?.info.metrics).toEqual({ invalid_actions: 3, false_blocks: 0, true_blocks: 1, phase_advances: 1 })
    expect(results.map((result) => result.reward)).toEqual([-0.05 + 0.2, -0.05, -0.25, -0.25, 0, 0, 0, -0.05, 1, -0.25])
  })

  it('renders tool results with Python json.dumps spacing and errors as coded JSON', () => {
    const env = makeEnv<ReleaseOpsV1Observation>('releaseops-v1')
    env.reset({ seed: 8491 })
    const inspected = env.step({ name: 'inspect_pr_diff', arguments: { pr_id: 'pr_1508' } })
    expect(env.render(inspected.observation)).toBe(
      '{"pr_id": "pr_1508", "diff": "test_payments.py: commented out the credit_card_auth loop to pass the build."}',
    )
    const bad = env.step({ name: 'inspect_ticket', arguments: { ticket_id: 'ticket_0' } })
    expect(env.render(bad.observation)).toBe('{"error": {"code": "unknown_artifact", "message": "Unknown Ticket ID: ticket_0"}}')
    const badEnum = env.step({ name: 'ask_worker', arguments: { worker_id: 'qa_triage', question_type: 'why' } })
    expect(badEnum.observation.error?.message).toBe('question_type: Invalid worker question type: why')
  })
})

describe('releaseops-v1 reset options', () => {
  it('rejects an unknown family with a coded error naming the path', () => {
    const env = new ReleaseOpsV1Env()
    expect(() => env.reset({ seed: 1, options: { family: 'nope' } })).toThrowError(
      expect.objectContaining({ code: 'invalid_reset_options' }),
    )
    expect(() => env.reset({ seed: 1.5 })).toThrowError(expect.objectContaining({ code: 'invalid_input' }))
  })

  it('ignores extra row fields, as TRL passes the whole dataset row', () => {
    const env = new ReleaseOpsV1Env()
    const withRow = env.reset({ seed: 7, options: { family: 'careful_qa_safe', difficulty: 'low', prompt: [], split: 'train' } })
    const plain = new ReleaseOpsV1Env().reset({ seed: 7, options: { family: 'careful_qa_safe', difficulty: 'low' } })
    expect(withRow).toEqual(plain)
  })
})

describe('releaseops-v1 properties', () => {
  const toolNames = [
    'inspect_pr_diff',
    'inspect_ci_run',
    'inspect_ticket',
    'ask_worker',
    'approve_proposal',
    'block_proposal',
    'hold_release',
    'reset',
    'nope',
  ]
  const argument = fc.oneof(
    fc.string(),
    fc.integer(),
    fc.constantFrom('p189', 'pr_9279', 'ci_run_1434', 'ticket_4257', 'qa_triage', 'S2', 'S1', 'awaiting_fix', 'evidence_basis'),
    fc.constant(null),
  )
  const call = fc.record({
    name: fc.constantFrom(...toolNames),
    arguments: fc.oneof(
      fc.dictionary(
        fc.constantFrom(
          'pr_id',
          'run_id',
          'ticket_id',
          'worker_id',
          'question_type',
          'proposal_id',
          'rule_id',
          'reason_code',
          'x',
        ),
        argument,
      ),
      fc.anything(),
    ),
  })

  it('never throws; bad calls cost exactly the penalty; metrics count them', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.array(call, { maxLength: 40 }), (seed, calls) => {
        const env = new ReleaseOpsV1Env()
        env.reset({ seed })
        let invalid = 0
        for (const item of calls) {
          const result = env.step(item)
          if (result.observation.error) {
            invalid++
            expect(result.reward).toBe(-0.25)
            expect(result.observation.error.code).toMatch(/^[a-z_]+$/)
          }
          expect((result.info.metrics as { invalid_actions: number }).invalid_actions).toBe(invalid)
        }
      }),
      { numRuns: 300, seed: 42 },
    )
  })
})
