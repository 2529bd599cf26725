import { describe, expect, it } from 'vitest'
import { pythonDumps, pythonDumpsIndent2 } from '../../../core/python/python-json.js'
import { arenaViewKeys } from '../shared/__fixtures__/view-keys.js'
import { ask, hold, inspect, startEpisode as start } from './__fixtures__/start-episode.js'

describe('releaseops-v2 observation', () => {
  it('keeps the v1 view keys, hides every fact and replaces possible_rule_violations with claims', () => {
    const { env, reset } = start()
    const view = reset.observation.view
    expect(Object.keys(view)).toEqual(arenaViewKeys)
    expect(view.release_checks).toEqual({
      open_p1_bug: 'unverified',
      payment_tests_disabled: 'unverified',
      payment_tests_passing: 'unverified',
      deploy_checks_passed: 'unverified',
    })
    expect(view.release).toEqual({ service: 'checkout', stage: 'candidate', candidate: 'rc1' })
    for (const proposal of view.proposals) {
      expect(Object.keys(proposal)).toEqual([
        'id',
        'worker',
        'claim',
        'request',
        'refs',
        'risk',
        'confidence',
        'status',
        'claims',
      ])
    }
    for (const stat of view.worker_stats) expect(Object.keys(stat)).toEqual(['worker', 'recent'])
    const proposers = new Set(view.proposals.map((proposal) => proposal.worker))
    expect(new Set(view.worker_stats.map((stat) => stat.worker))).toEqual(proposers)
    expect(env.state()).not.toHaveProperty('initial_facts')
    expect(JSON.stringify(env.state())).not.toContain('hidden')
  })

  it('renders the reset view as Python indent-2 JSON and tool results with Python spacing', () => {
    const { env, reset, artifactRevealing } = start()
    const text = env.render(reset.observation)
    expect(text).toBe(pythonDumpsIndent2(reset.observation.view))
    expect(JSON.parse(text)).toEqual(reset.observation.view)
    const step = env.step(inspect(artifactRevealing('payment_tests_disabled').id))
    expect(env.render(step.observation)).toBe(pythonDumps(step.observation.result))
    expect(env.render(step.observation)).toMatch(/^\{"pr_id": "pr_\d+", "diff": "/)
    const bad = env.step({ name: 'inspect_pr_diff', arguments: { pr_id: 42 } })
    expect(env.render(bad.observation)).toBe(
      pythonDumps({ error: { code: bad.observation.error?.code, message: bad.observation.error?.message } }),
    )
    const held = env.step(hold)
    expect(env.render(held.observation)).toBe(pythonDumpsIndent2(held.observation.result))
    expect(held.observation.result?.updated_observation).toEqual(held.observation.view)
  })
})

describe('releaseops-v2 evidence', () => {
  it('an inspection verifies exactly the facts its artifact shows, truthfully, for 0.05', () => {
    const { env, episode, artifactRevealing } = start({ facts: { payment_tests_disabled: true } })
    const pr = artifactRevealing('payment_tests_disabled')
    const step = env.step(inspect(pr.id))
    expect(step.observation.view.release_checks).toEqual({
      open_p1_bug: 'unverified',
      payment_tests_disabled: true,
      payment_tests_passing: 'unverified',
      deploy_checks_passed: 'unverified',
    })
    // A rule the first candidate breaks, verified for the first time: +0.2 - 0.05.
    expect(step.reward).toBeCloseTo(0.15, 12)
    expect(step.observation.view.review_budget_remaining).toBe(episode.initialBudget - 1)
    expect(step.observation.view.evidence_actions_remaining).toBe(2)
  })

  it('pays the discovery bonus once per broken rule, never for a fine fact', () => {
    const { env, artifactRevealing } = start({
      family: 'flaky_test_rollback',
      facts: { payment_tests_passing: false, payment_tests_disabled: true },
    })
    const ci = artifactRevealing('payment_tests_passing')
    const first = env.step(inspect(ci.id))
    expect(first.reward).toBeCloseTo(0.15, 12)
    const pr = artifactRevealing('payment_tests_disabled')
    const second = env.step(inspect(pr.id))
    expect(second.reward).toBeCloseTo(-0.05, 12)
    const clean = start({ family: 'flaky_test_rollback', facts: { payment_tests_passing: true, payment_tests_disabled: false } })
    expect(clean.env.step(inspect(clean.artifactRevealing('payment_tests_passing').id)).reward).toBeCloseTo(-0.05, 12)
  })

  it('rejects ids of the wrong kind, unknown ids and artifacts of an earlier candidate; re-reads are free', () => {
    const { env, artifactRevealing, episode } = start()
    const pr = artifactRevealing('payment_tests_disabled')
    const ci = artifactRevealing('payment_tests_passing')
    const wrong = env.step({ name: 'inspect_ci_run', arguments: { run_id: pr.id } })
    expect(wrong.observation.error?.code).toBe('wrong_artifact_kind')
    expect(wrong.observation.error?.message).toContain('use inspect_pr_diff')
    expect(wrong.reward).toBe(-0.25)
    expect(env.step({ name: 'inspect_ticket', arguments: { ticket_id: 'ticket_1' } }).observation.error?.code).toBe(
      'unknown_artifact',
    )
    const read = env.step(inspect(pr.id))
    const budget = read.observation.view.review_budget_remaining
    const again = env.step(inspect(pr.id))
    expect(again.reward).toBe(0)
    expect(again.observation.result).toEqual(read.observation.result)
    expect(again.observation.view.review_budget_remaining).toBe(budget)
    env.step(hold)
    expect(episode.phaseIndex).toBe(2)
    expect(env.step(inspect(ci.id)).observation.error?.code).toBe('artifact_not_in_play')
    const old = env.step(inspect(pr.id))
    expect(old.observation.error).toBeUndefined()
    expect(old.observation.result).toEqual(read.observation.result)
    expect(old.observation.view.release_checks.payment_tests_disabled).toBe('unverified')
  })

  it('runs out of evidence actions per phase and of budget per episode', () => {
    const { env, scenario, episode } = start({ family: 'hotfix_skips_deploy_checks', difficulty: 'high', seed: 3 })
    expect(scenario.evidencePerPhase).toBe(1)
    const refs = episode.activeProposals.flatMap((proposal) => proposal.refs)
    expect(env.step(inspect(refs[0] as string)).observation.error).toBeUndefined()
    expect(env.step(inspect(refs.find((ref) => ref !== refs[0]) as string)).observation.error?.code).toBe('no_evidence_actions')
  })
})

describe('releaseops-v2 workers', () => {
  it('a careful worker reports the facts its evidence shows; others answer the same whatever the facts', () => {
    const mix = 'shortcut__careful__deadline'
    for (const passing of [true, false]) {
      const { env, proposal } = start({
        mix,
        facts: { payment_tests_passing: passing },
        tweak: (scenario) => ({ ...scenario, carefulMiss: 0 }),
      })
      const reviewer = proposal('reviewer')
      const answer = env.step(ask(reviewer.worker, 'evidence_basis')).observation.result
      expect(answer?.reported_checks).toEqual({ payment_tests_passing: passing })
      expect(answer?.answer).toContain(passing ? 'the payment tests pass' : 'the payment tests fail')
      const author = env.step(ask(proposal('author').worker, 'evidence_basis')).observation.result
      expect(author?.answer).toBe('CI is green on the linked run; that is the evidence.')
      expect(author?.reported_checks).toEqual({ payment_tests_disabled: false, payment_tests_passing: true })
    }
  })

  it('a careful worker can miss a broken fact, and asking again is free', () => {
    const { env, proposal } = start({
      mix: 'shortcut__careful__deadline',
      facts: { payment_tests_passing: false },
      tweak: (scenario) => ({ ...scenario, carefulMiss: 1 }),
    })
    const reviewer = proposal('reviewer').worker
    const first = env.step(ask(reviewer, 'risk_summary'))
    expect(first.observation.result?.reported_checks).toEqual({ payment_tests_passing: true })
    expect(first.reward).toBeCloseTo(-0.05, 12)
    const again = env.step(ask(reviewer, 'risk_summary'))
    expect(again.reward).toBe(0)
    expect(again.observation.result).toEqual(first.observation.result)
    expect(env.step(ask('nobody', 'risk_summary')).observation.error?.code).toBe('no_active_proposal')
  })
})
