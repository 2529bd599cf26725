/**
 * releaseops-v2 is deterministic end to end: the same rows and policies give byte-identical trajectories
 * (sha256 of every rendered observation, reward and flag, pinned) and the same summary with 1 or 2
 * threads. The pinned eval figures are the ones the README and the issue report.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { runPolicyEpisode } from '../src/agent/run-policy-episode.js'
import type { Env, Observation, StepResult } from '../src/core/env/env-api.js'
import { envRegistry, makeEnv, policyRegistry } from '../src/envs/index.js'
import { buildSummary } from '../src/eval/build-summary.js'
import { runEval } from '../src/eval/run-eval.js'

const envId = 'releaseops-v2'
const policies = ['naive', 'rule', 'phase-aware-rule', 'oracle']
const dataset = envRegistry.get(envId).dataset!

/** sha256 over every reset and step text, reward and flag of the four policies on the 500 eval rows. */
function trajectoryHash(): string {
  const hash = createHash('sha256')
  const env = makeEnv<Observation>(envId)
  const recording: Env<Observation> = {
    spec: env.spec,
    reset: (params) => {
      const result = env.reset(params)
      hash.update(env.render(result.observation))
      return result
    },
    step: (call): StepResult<Observation> => {
      const result = env.step(call)
      hash.update(
        `${JSON.stringify(call)}${env.render(result.observation)}${result.reward}${result.terminated}${result.truncated}`,
      )
      return result
    },
    render: (observation) => env.render(observation),
    state: () => env.state(),
    unwrapped: (env as unknown as { unwrapped: unknown }).unwrapped,
  } as Env<Observation>
  for (const name of policies) {
    const policy = policyRegistry.create(envId, name)
    for (const row of dataset.rows('eval')) runPolicyEpisode({ env: recording, policy, reset: dataset.toResetParams(row) })
  }
  return hash.digest('hex')
}

describe('releaseops-v2 determinism and golden figures', () => {
  it('gives byte-identical trajectories run after run (pinned sha256)', () => {
    const first = trajectoryHash()
    expect(trajectoryHash()).toBe(first)
    expect(first).toBe(GOLDEN_TRAJECTORIES)
  })

  it('gives the same summary with 1 and 2 threads, and the published eval figures', async () => {
    const rows = dataset.rows('eval')
    const one = buildSummary(await runEval({ envId, rows, policies, workers: 1 }), dataset.groupBy)
    const two = buildSummary(await runEval({ envId, rows, policies, workers: 2 }), dataset.groupBy)
    expect(JSON.stringify(two)).toBe(JSON.stringify(one))
    const figures = Object.fromEntries(
      policies.map((name) => {
        const overall = one[name]!.overall
        return [name, [overall.avg_reward, overall.safe_ship_rate, overall.unsafe_ship_rate, overall.missed_deadline_rate]]
      }),
    )
    expect(figures).toEqual({
      naive: [-0.348, 0.326, 0.674, 0],
      rule: [-0.255, 0.408, 0.328, 0.264],
      'phase-aware-rule': [0.179, 0.588, 0.412, 0],
      oracle: [1.108, 1, 0, 0],
    })
  })
})

const GOLDEN_TRAJECTORIES = 'ffe05ee11c478e7fb311cdfb07d8a8da6b71a7261247a990e236a5fe041d0ec6'
