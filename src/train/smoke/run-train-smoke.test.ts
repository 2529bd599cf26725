import { describe, expect, it } from 'vitest'
import { parseRollouts, toolCallTally } from './read-run-evidence.js'
import { smokeStartBody } from './run-train-smoke.js'
import type { ServerCounters } from './smoke-replies.js'

describe('the smoke run’s steps', () => {
  it('asks for the warm model, the flags’ steps and sampling, 4 generations of 64 rows', () => {
    const body = smokeStartBody({
      work: 'w',
      env: 'releaseops-v3',
      steps: 3,
      warmupSteps: 1,
      warmupRows: 1,
      learningRate: 0.01,
      temperature: 0.7,
      stopCheck: false,
    })
    expect(body).toMatchObject({ preset: 'smoke', env_id: 'releaseops-v3', max_steps: 3, num_generations: 4, max_rows: 64 })
    expect(body).toMatchObject({ temperature: 0.7, learning_rate: 0.01, seed: 7 })
  })

  it('counts accepted calls as the env’s calls less its tool errors', () => {
    const counters = { envs: { a: { tool_calls_total: 10, tool_errors: 3 } }, recent_episodes: [] } as unknown as ServerCounters
    expect(toolCallTally(counters, 'a')).toEqual({ accepted_tool_calls: 7, rejected_tool_calls: 3 })
    expect(toolCallTally(counters, 'b')).toEqual({ accepted_tool_calls: 0, rejected_tool_calls: 0 })
  })

  it('reads the rollout log line by line, refusing a line of the wrong shape', () => {
    const line = { rollout: 1, reward: 0.5, tool_calls: 2, tool_errors: 0 }
    expect(parseRollouts(`${JSON.stringify(line)}\n\n`)).toEqual([line])
    expect(() => parseRollouts('{"rollout": "one"}\n')).toThrow(/rollouts.jsonl line 1/)
  })
})
