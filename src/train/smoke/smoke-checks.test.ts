import { describe, expect, it } from 'vitest'
import type { LogRow } from '../log-history.js'
import { checkpointCheck, checkSmokeRun, matchedRollouts, type SmokeEvidence, trainerLogChecks } from './smoke-checks.js'

const steps: LogRow[] = [
  { step: 1, loss: 0, grad_norm: 0, reward: -0.25, 'rewards/ReleaseOpsEnv/mean': -0.25, 'tools/call_frequency': 1 },
  { step: 2, loss: 0.09, grad_norm: 0.58, reward: -0.5, 'rewards/ReleaseOpsEnv/mean': -0.5, 'tools/call_frequency': 0.5 },
  { step: 2, train_runtime: 9, train_loss: 0.04 },
]

function evidence(): SmokeEvidence {
  return {
    envId: 'releaseops-v2',
    state: 'succeeded',
    exitCode: 0,
    rows: steps,
    rollouts: [
      { rollout: 0, seed: 1, family: 'a', reward: -0.25, tool_calls: 1, tool_errors: 0 },
      { rollout: 1, seed: 2, family: 'b', reward: -0.5, tool_calls: 1, tool_errors: 1 },
    ],
    counters: {
      envs: { 'releaseops-v2': { resets: 2, steps: 2, tool_calls: { inspect_ci_run: 2 }, tool_calls_total: 2, tool_errors: 1 } },
      recent_episodes: [
        { env_id: 'releaseops-v2', seed: 1, family: 'a', cumulative_reward: -0.25, tool_calls: 1 },
        { env_id: 'releaseops-v2', seed: 2, family: 'b', cumulative_reward: -0.5, tool_calls: 1 },
      ],
    },
    files: ['final/model.safetensors', 'best_by_reward/best_info.json', 'best_by_loss/best_info.json'],
  }
}

const failing = (value: SmokeEvidence) =>
  checkSmokeRun(value)
    .filter((check) => !check.ok)
    .map((check) => check.name)

describe('checkSmokeRun', () => {
  it('passes a run whose evidence agrees', () => {
    expect(failing(evidence())).toEqual([])
  })

  it('fails when the server saw fewer resets than the trainer reported rollouts', () => {
    const value = evidence()
    value.counters.envs['releaseops-v2']!.resets = 1
    expect(failing(value)).toEqual(['every rollout reset the env on the server'])
  })

  it('fails when tools were never called, through the server or in the log', () => {
    const value = evidence()
    value.counters.envs['releaseops-v2']!.tool_calls_total = 0
    value.rows = steps.map((row) => ('train_runtime' in row ? row : { ...row, 'tools/call_frequency': 0 }))
    expect(failing(value)).toEqual(['tools/call_frequency > 0', 'tools were called through the server'])
  })

  it('fails a reward that is not an episode reward on the server, or another reward function', () => {
    const value = evidence()
    value.rollouts = value.rollouts.map((line) => ({ ...line, reward: line.reward + 1 }))
    value.rows = steps.map((row) => ('train_runtime' in row ? row : { ...row, 'rewards/format_reward/mean': 1 }))
    expect(failing(value)).toEqual([
      'reward is the env’s own (get_reward), no other reward function',
      'every rollout reward is an episode reward on the server',
      'logged mean reward equals the rollouts’ mean',
    ])
  })

  it('fails zero loss and grad norm, a crash, too few steps and a missing checkpoint', () => {
    const value = evidence()
    value.rows = [{ ...steps[0], step: 1 }]
    value.state = 'failed'
    value.exitCode = 1
    value.files = ['final/config.json', 'best_by_reward/best_info.json']
    expect(failing(value)).toEqual([
      'trainer exited cleanly',
      'at least 2 optimisation steps logged',
      'loss non-zero',
      'grad_norm non-zero',
      'logged mean reward equals the rollouts’ mean',
      'checkpoint written',
    ])
  })
})

describe('checkSmokeRun: its steps alone', () => {
  it('matchedRollouts uses each server episode of the env once', () => {
    const { rollouts, counters } = evidence()
    expect(matchedRollouts(rollouts, counters.recent_episodes, 'releaseops-v2')).toBe(2)
    const twice = [rollouts[0], rollouts[0]] as typeof rollouts
    expect(matchedRollouts(twice, counters.recent_episodes, 'releaseops-v2')).toBe(1)
    expect(matchedRollouts(rollouts, counters.recent_episodes, 'releaseops-v3')).toBe(0)
  })

  it('checkpointCheck needs the final weights (either format) and both best records', () => {
    expect(checkpointCheck(['final/pytorch_model.bin', 'best_by_reward/best_info.json', 'best_by_loss/best_info.json']).ok).toBe(
      true,
    )
    expect(checkpointCheck(['final/model.safetensors', 'best_by_reward/best_info.json'])).toMatchObject({
      ok: false,
      detail: 'final weights yes, best_by_reward yes, best_by_loss no',
    })
  })

  it("trainerLogChecks refuses a reward column other than the env's", () => {
    const rows = steps.slice(0, 2).map((row) => ({ ...row, 'rewards/other/mean': 1 }))
    const failed = trainerLogChecks(evidence(), rows, 'rewards/ReleaseOpsEnv/mean').filter((item) => !item.ok)
    expect(failed.map((item) => item.detail)).toEqual([
      'rewards/ReleaseOpsEnv/mean logged on every step; other reward columns: rewards/other/mean',
    ])
  })
})
