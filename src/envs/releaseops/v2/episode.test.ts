import { describe, expect, it } from 'vitest'
import { buildScenarioV2 } from '../arena/build-scenario.js'
import { drawScenario } from '../arena/draw-scenario.js'
import type { Scenario } from '../arena/scenario.js'
import { approve, ask, block, hold, inspect, startEpisode as start } from './__fixtures__/start-episode.js'
import { ReleaseOpsV2Env } from './releaseops-env.js'

describe('releaseops-v2 blocks, ships and revisions', () => {
  it('a block is true when approving would ship or keep a broken rule, false otherwise', () => {
    const broken = start({ facts: { payment_tests_passing: false, payment_tests_disabled: false } })
    const ship = broken.proposal('author', 'ship_release_candidate')
    const step = broken.env.step(block(ship.id, 'S2'))
    expect(step.reward).toBe(0)
    expect(step.info.metrics).toMatchObject({ true_blocks: 1, false_blocks: 0, wrong_rule_blocks: 0 })
    const reviewer = broken.proposal('reviewer')
    expect(broken.env.step(block(reviewer.id, 'S1')).info.metrics).toMatchObject({ true_blocks: 2, wrong_rule_blocks: 1 })

    const clean = start({ facts: { payment_tests_passing: true, payment_tests_disabled: false } })
    const cleanShip = clean.proposal('author', 'ship_release_candidate')
    const falseBlock = clean.env.step(block(cleanShip.id, 'S2'))
    expect(falseBlock.reward).toBe(-0.15)
    expect(falseBlock.info.metrics).toMatchObject({ true_blocks: 0, false_blocks: 1 })
    // The reviewer vouches only for the payment tests passing: with those fine, blocking it is false
    // even though another fact breaks S2.
    const disabled = start({ facts: { payment_tests_passing: true, payment_tests_disabled: true } })
    expect(disabled.env.step(block(disabled.proposal('reviewer').id, 'S2')).reward).toBe(-0.15)
  })

  it('approving a ship ends the episode: safe on clean facts, unsafe otherwise', () => {
    const clean = start({ facts: { payment_tests_disabled: false, payment_tests_passing: true } })
    const safe = clean.env.step(approve(clean.proposal('author', 'ship_release_candidate').id))
    expect([safe.terminated, safe.reward, safe.info.terminal_reason]).toEqual([true, 1, 'safe_ship'])
    expect(safe.observation.result).toMatchObject({ action: 'approve', terminal: true, episode_end_reason: 'safe_ship' })
    const after = clean.env.step(hold)
    expect([after.observation.error?.code, after.reward]).toEqual(['episode_terminal', -0.25])
    const bad = start({ facts: { payment_tests_disabled: true } })
    const unsafe = bad.env.step(approve(bad.proposal('author', 'ship_release_candidate').id))
    expect([unsafe.terminated, unsafe.reward, unsafe.info.terminal_reason]).toEqual([true, -1, 'unsafe_ship'])
  })

  it('a reported broken fact is always repaired; an unreported one only on a lucky roll', () => {
    const noLuck = (scenario: Scenario) => ({ ...scenario, fixProbability: 0, breakProbability: 0 })
    const reported = start({ facts: { payment_tests_disabled: true }, tweak: noLuck })
    reported.env.step(block(reported.proposal('author', 'ship_release_candidate').id, 'S2'))
    reported.env.step(hold)
    expect(reported.episode.facts.payment_tests_disabled).toBe(false)
    const ship = reported.proposal('author', 'ship_release_candidate', 2)
    expect(reported.env.step(approve(ship.id)).info.terminal_reason).toBe('safe_ship')

    const unreported = start({ facts: { payment_tests_disabled: true }, tweak: noLuck })
    const held = unreported.env.step(hold)
    expect(held.observation.view.release.candidate).toBe('rc2')
    expect(held.observation.view.proposals.find((item) => item.request === 'ship_release_candidate')?.claim).toMatch(
      /restored|fixed/,
    )
    expect(unreported.episode.facts.payment_tests_disabled).toBe(true)

    const lucky = start({ facts: { payment_tests_disabled: true }, tweak: (scenario) => ({ ...scenario, fixProbability: 1 }) })
    lucky.env.step(hold)
    expect(lucky.episode.facts.payment_tests_disabled).toBe(false)
    // Vouching for a broken fact (approving the proposal that claims it fine) stops any blind repair.
    const vouched = start({
      facts: { payment_tests_passing: false },
      tweak: (scenario) => ({ ...scenario, fixProbability: 1 }),
    })
    vouched.env.step(approve(vouched.proposal('reviewer').id))
    vouched.env.step(hold)
    expect(vouched.episode.facts.payment_tests_passing).toBe(false)
  })

  it('a blind revision may break a fine fact; a revision after any block does not', () => {
    const breaks = (scenario: Scenario) => ({ ...scenario, fixProbability: 0, breakProbability: 1 })
    const blind = start({ facts: { payment_tests_disabled: false, payment_tests_passing: true }, tweak: breaks })
    blind.env.step(hold)
    expect(blind.episode.facts).toMatchObject({ payment_tests_disabled: true, payment_tests_passing: false })
    expect(blind.episode.facts.deploy_checks_passed).toBe(true)
    const focused = start({ facts: { payment_tests_disabled: false, payment_tests_passing: true }, tweak: breaks })
    focused.env.step(block(focused.proposal('reviewer').id, 'S2'))
    focused.env.step(hold)
    expect(focused.episode.facts).toMatchObject({ payment_tests_disabled: false, payment_tests_passing: true })
  })

  it('resolving every proposal advances the phase and shows the new proposals; the deadline ends it', () => {
    const { env, episode } = start({ family: 'careful_workers_disagree', difficulty: 'high' })
    expect(episode.hours).toBe(24)
    const others = episode.activeProposals.filter((proposal) => proposal.request !== 'ship_release_candidate')
    const ship = episode.activeProposals.find((proposal) => proposal.request === 'ship_release_candidate')
    for (const proposal of others) env.step(approve(proposal.id))
    const last = env.step(block(ship?.id as string, 'S3'))
    expect(last.observation.result?.updated_observation).toEqual(last.observation.view)
    expect(last.observation.view).toMatchObject({ phase: 'deploy_gate', phase_index: 2, hours_to_deadline: 12 })
    expect(last.observation.view.proposals.every((proposal) => proposal.status === 'unresolved')).toBe(true)
    const end = env.step(hold)
    expect(end.observation.result).toEqual({ action: 'hold_release', terminal: true, reason: 'missed_deadline' })
    expect([end.terminated, end.info.terminal_reason]).toEqual([true, 'missed_deadline'])
    expect(end.reward).toBeCloseTo(-0.6, 12)
  })
})

describe('releaseops-v2 rewards and episode end', () => {
  it('step rewards add up to info.cumulative_reward', () => {
    const { env, episode } = start({ family: 'qa_undercalls_p1_checkout_bug', difficulty: 'medium', seed: 11 })
    let total = 0
    const calls = [
      ...episode.activeProposals.flatMap((proposal) => proposal.refs.map(inspect)),
      { name: 'nope', arguments: {} },
      block(episode.activeProposals[0]?.id as string, 'S1'),
      hold,
      ...episode.scenario.phases[1]!.map((proposal) => approve(proposal.id)),
    ]
    for (const call of calls) {
      const step = env.step(call)
      total += step.reward
      expect(step.info.cumulative_reward).toBeCloseTo(total, 12)
      if (step.terminated) break
    }
  })

  it('truncates an episode after consecutive free calls that change nothing (no_progress)', () => {
    const { env, artifactRevealing } = start()
    const pr = artifactRevealing('payment_tests_disabled').id
    expect(env.step(inspect(pr)).truncated).toBe(false)
    for (let index = 0; index < 5; index++) {
      expect(env.step(inspect(pr)).truncated).toBe(false)
      // Bad calls are priced on their own and neither extend nor reset the streak.
      expect(env.step({ name: 'no_such_tool', arguments: {} }).truncated).toBe(false)
    }
    const last = env.step(inspect(pr))
    expect([last.truncated, last.terminated, last.info.truncated_reason]).toEqual([true, false, 'no_progress'])
    expect(() => env.step(inspect(pr))).toThrowError(expect.objectContaining({ code: 'reset_needed' }))
    const again = env.reset({ seed: 7, options: { family: 'green_ci_disabled_payment_test', difficulty: 'low' } })
    expect(again.info.step_count).toBe(0)
  })

  it('any state change resets the no-progress streak; the limit is a reset option', () => {
    const env = new ReleaseOpsV2Env()
    const reset = env.reset({ seed: 5, options: { no_progress_limit: 2 } })
    const ref = reset.observation.view.proposals.find((proposal) => proposal.request === 'ship_release_candidate')
      ?.refs[0] as string
    env.step(inspect(ref))
    expect(env.step(inspect(ref)).truncated).toBe(false)
    env.step(ask(reset.observation.view.proposals[0]?.worker as string, 'policy_basis'))
    expect(env.step(inspect(ref)).truncated).toBe(false)
    expect(env.step(inspect(ref)).truncated).toBe(true)
  })
})

describe('releaseops-v2 reset', () => {
  it('rejects bad options with coded issues', () => {
    const env = new ReleaseOpsV2Env()
    for (const [options, path] of [
      [{ family: 'careful_qa_unsafe' }, 'options.family'],
      [{ difficulty: 'extreme' }, 'options.difficulty'],
      [{ archetype_mix: 'careful__careful' }, 'options.archetype_mix'],
      [{ archetype_mix: 'careful__lazy__careful' }, 'options.archetype_mix'],
      [{ no_progress_limit: 0 }, 'options.no_progress_limit'],
    ] as const) {
      expect(() => env.reset({ seed: 1, options })).toThrowError(
        expect.objectContaining({ code: 'invalid_reset_options', issues: [expect.objectContaining({ path })] }),
      )
    }
    expect(() => env.reset({ seed: 1.5 })).toThrowError(expect.objectContaining({ code: 'invalid_input' }))
    expect(() => new ReleaseOpsV2Env().step(hold)).toThrowError(expect.objectContaining({ code: 'reset_needed' }))
  })

  it('redraws a draw the oracle cannot win from the next sub-seed, and gives up with a coded error', () => {
    const noShipOnFirstAttempt = (draw: Parameters<typeof drawScenario>[0]) => {
      const scenario = drawScenario(draw)
      if (draw.attempt > 0) return scenario
      // Sabotage: no ship proposal in any phase, so nothing can ever be shipped.
      const phases = scenario.phases.map((proposals) =>
        proposals.filter((proposal) => proposal.request !== 'ship_release_candidate'),
      )
      return { ...scenario, phases }
    }
    const options = {
      family: 'green_ci_disabled_payment_test',
      seed: 9,
      difficulty: 'medium',
      archetypeMix: 'shortcut__careful__deadline',
    } as const
    const proven = buildScenarioV2(options, noShipOnFirstAttempt)
    expect(proven.scenario.attempt).toBe(1)
    expect(proven.oracle.terminalReason).toBe('safe_ship')
    expect(buildScenarioV2(options).scenario.attempt).toBe(0)
    expect(() => buildScenarioV2(options, (draw) => noShipOnFirstAttempt({ ...draw, attempt: 0 }))).toThrowError(
      expect.objectContaining({ code: 'unwinnable_scenario' }),
    )
  })
})
