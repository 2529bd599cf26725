import { describe, expect, it } from 'vitest'
import { makeEnv } from '../../index.js'
import { approve, ask, block, hold, inspect, startEpisodeV3 } from './__fixtures__/start-episode.js'

const disabled = { payment_tests_disabled: true, payment_tests_passing: true }

describe('releaseops-v3 blocks need evidence', () => {
  it('rejects a block of a truly broken ship when nothing was verified: proposal stays open, 6 hours and −0.15 lost, nothing reported', () => {
    const { env, proposal, episode } = startEpisodeV3({ facts: disabled })
    const ship = proposal('author', 'ship_release_candidate')
    const hours = episode.hours
    const step = env.step(block(ship.id, 'S2'))
    expect(step.observation.error).toBeUndefined()
    expect(step.observation.result).toMatchObject({
      accepted: false,
      reason: 'no_evidence_cited',
      hours_lost: 6,
      terminal: false,
    })
    expect(step.reward).toBeCloseTo(-0.15)
    expect(episode.statusOf(ship.id)).toBe('unresolved')
    expect(step.observation.view.hours_to_deadline).toBe(hours - 6)
    expect(step.info.metrics).toMatchObject({ false_blocks: 1, unevidenced_blocks: 1, true_blocks: 0 })
    expect([...episode.reported]).toEqual([])
  })

  it('counts a block after the fact was verified broken, and the revision repairs exactly that fact', () => {
    const { env, proposal, artifactRevealing, episode } = startEpisodeV3({ facts: disabled })
    const ship = proposal('author', 'ship_release_candidate')
    const seen = env.step(inspect(artifactRevealing('payment_tests_disabled').id))
    expect(seen.observation.view.release_checks.payment_tests_disabled).toBe(true)
    expect(seen.reward).toBeCloseTo(-0.05 + 0.2)
    const blocked = env.step(block(ship.id, 'S2'))
    expect(blocked.observation.result).toMatchObject({ action: 'block', accepted: true })
    expect(blocked.info.metrics).toMatchObject({ true_blocks: 1, false_blocks: 0 })
    env.step(hold)
    expect(episode.phaseIndex).toBe(2)
    expect(episode.facts.payment_tests_disabled).toBe(false)
  })

  it('rejects a block citing a verified rule on a proposal that does not vouch for it', () => {
    const { env, artifactRevealing, episode, scenario } = startEpisodeV3({ facts: disabled })
    env.step(inspect(artifactRevealing('payment_tests_disabled').id))
    const distractor = scenario.phases[0]?.find((item) => item.role === 'developer')
    if (!distractor) throw new Error('no distractor')
    const step = env.step(block(distractor.id, 'S2'))
    expect(step.observation.result).toMatchObject({ accepted: false, reason: 'evidence_does_not_concern_proposal' })
    expect(episode.statusOf(distractor.id)).toBe('unresolved')
  })

  it('never repairs an unreported broken fact: a blind hold leaves it broken', () => {
    const { env, episode } = startEpisodeV3({ facts: disabled, seed: 11 })
    env.step(hold)
    expect(episode.phaseIndex).toBe(2)
    expect(episode.facts.payment_tests_disabled).toBe(true)
  })

  it('runs the deadline out with rejected blocks (missed_deadline)', () => {
    const { env, proposal, episode } = startEpisodeV3({ facts: disabled, difficulty: 'high' })
    const ship = proposal('author', 'ship_release_candidate')
    let last = env.step(block(ship.id, 'S1'))
    while (!last.terminated) last = env.step(block(ship.id, 'S1'))
    expect(episode.hours).toBeLessThanOrEqual(0)
    expect(last.info.terminal_reason).toBe('missed_deadline')
  })
})

describe('releaseops-v3 joint evidence (flag_gated_payment_suite)', () => {
  it('verifies the disabled suite only once both the PR and the CI run are read', () => {
    const { env, artifactInSlot } = startEpisodeV3({
      family: 'flag_gated_payment_suite',
      facts: { payment_tests_disabled: true },
    })
    const ci = env.step(inspect(artifactInSlot('ci').id))
    expect(ci.observation.view.release_checks.payment_tests_disabled).toBe('unverified')
    expect(ci.observation.view.release_checks.deploy_checks_passed).not.toBe('unverified')
    const pr = env.step(inspect(artifactInSlot('pr').id))
    expect(pr.observation.view.release_checks.payment_tests_disabled).toBe(true)
    expect(pr.reward).toBeCloseTo(-0.05 + 0.2)
  })

  it('shows a flag the PR names when the suite ran, another one when it did not', () => {
    const texts = [false, true].map((value) => {
      const { env, artifactInSlot } = startEpisodeV3({
        family: 'flag_gated_payment_suite',
        facts: { payment_tests_disabled: value },
      })
      const pr = String(env.step(inspect(artifactInSlot('pr').id)).observation.result?.diff)
      const ci = String(env.step(inspect(artifactInSlot('ci').id)).observation.result?.output)
      const gate = /`([a-z_0-9]+)`/.exec(pr)?.[1]
      return { pr, named: ci.includes(`\`${gate}\``) }
    })
    expect(texts[0]?.pr).toBe(texts[1]?.pr)
    expect(texts.map((text) => text.named)).toEqual([true, false])
  })
})

describe('releaseops-v3 unfinished episodes and the end', () => {
  it('scores a live episode as a missed deadline: −0.6 at reset, the running total −0.6 after each step', () => {
    const { env, reset, proposal } = startEpisodeV3()
    expect(reset.info.cumulative_reward).toBeCloseTo(-0.6)
    expect(env.state().cumulative_reward).toBeCloseTo(-0.6)
    const step = env.step(ask(proposal('author', 'ship_release_candidate').worker, 'policy_basis'))
    expect(step.reward).toBeCloseTo(-0.05)
    expect(step.info.cumulative_reward).toBeCloseTo(-0.65)
  })

  it('charges −0.6 in the step reward of a no-progress truncation', () => {
    const { env, proposal } = startEpisodeV3()
    const question = ask(proposal('author', 'ship_release_candidate').worker, 'policy_basis')
    let last = env.step(question)
    let sum = last.reward
    while (!last.truncated) {
      last = env.step(question)
      sum += last.reward
    }
    expect(last.info.truncated_reason).toBe('no_progress')
    expect(last.reward).toBeCloseTo(-0.6)
    expect(last.info.cumulative_reward).toBeCloseTo(sum)
    expect(last.info.cumulative_reward).toBeCloseTo(-0.65)
  })

  it('charges it at the step limit too, through makeEnv', () => {
    const env = makeEnv('releaseops-v3')
    env.reset({ seed: 3 })
    let last = env.step({ name: 'no_such_tool', arguments: {} })
    while (!last.truncated) last = env.step({ name: 'no_such_tool', arguments: {} })
    expect(last.info.step_count).toBe(64)
    expect(last.info.truncated_reason).toBe('step_limit')
    expect(last.info.cumulative_reward).toBeCloseTo(64 * -0.25 - 0.6)
  })

  it('answers calls after `terminated` with episode_terminal and no reward change', () => {
    const { env, proposal } = startEpisodeV3({ facts: { payment_tests_disabled: false, payment_tests_passing: true } })
    const shipped = env.step(approve(proposal('author', 'ship_release_candidate').id))
    expect(shipped.terminated).toBe(true)
    expect(shipped.info.cumulative_reward).toBeCloseTo(1)
    for (let index = 0; index < 70; index++) {
      const after = env.step({ name: 'hold_release', arguments: { reason_code: 'awaiting_fix' } })
      expect(after.observation.error?.code).toBe('episode_terminal')
      expect(after.reward).toBe(0)
      expect(after.info.cumulative_reward).toBeCloseTo(1)
      expect(after.info.metrics).toMatchObject({ invalid_actions: 0 })
    }
    expect(env.render(env.step(hold).observation)).toBe(
      '{"error": {"code": "episode_terminal", "message": "Episode is over; reset to start another."}}',
    )
  })

  it('keeps bad input as data: coded errors, the penalty, never an exception', () => {
    const { env } = startEpisodeV3()
    const cases = [
      { name: 'inspect_pr_diff', arguments: { pr_id: 'pr_0' } },
      { name: 'block_proposal', arguments: { proposal_id: 'p1', rule_id: 'S9' } },
      { name: 'approve_proposal', arguments: null },
      { name: 'nope', arguments: {} },
    ]
    const codes = cases.map((call) => {
      const step = env.step(call as never)
      expect(step.reward).toBeCloseTo(-0.25)
      return step.observation.error?.code
    })
    expect(codes).toEqual(['unknown_artifact', 'invalid_arguments', 'invalid_arguments', 'unknown_tool'])
  })
})

describe('releaseops-v3 under a shorter step limit', () => {
  it('the step that the wrapper truncates pays the missed deadline, so step rewards sum to the total', () => {
    const env = makeEnv('releaseops-v3', { maxEpisodeSteps: 3 })
    const reset = env.reset({ seed: 7 })
    expect(reset.info.cumulative_reward).toBeCloseTo(-0.6)
    let sum = 0
    let last = env.step({ name: 'no_such_tool', arguments: {} })
    sum += last.reward
    for (let index = 0; index < 2; index++) {
      last = env.step({ name: 'no_such_tool', arguments: {} })
      sum += last.reward
    }
    expect(last.truncated).toBe(true)
    expect(last.terminated).toBe(false)
    expect(last.reward).toBeCloseTo(-0.25 - 0.6)
    expect(sum).toBeCloseTo(last.info.cumulative_reward)
    expect(last.info.cumulative_reward).toBeCloseTo(3 * -0.25 - 0.6)
  })
})
