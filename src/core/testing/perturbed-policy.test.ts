import { describe, expect, it } from 'vitest'
import type { EnvSpec, Observation, ToolCall } from '../env/env-api.js'
import type { Policy } from '../policy/policy.js'
import { perturbedPolicy } from './perturbed-policy.js'

/** A base policy that reads three times, then approves. */
const base: Policy = {
  name: 'base',
  start() {
    let step = 0
    return {
      act: () => (step++ < 3 ? { name: 'read', arguments: { step } } : step === 5 ? null : { name: 'approve', arguments: {} }),
    }
  },
}
const start = {
  observation: {} as Observation,
  info: { cumulative_reward: 0, step_count: 0 },
  spec: {} as EnvSpec,
  env: {} as never,
}
const episode = (policy: Policy) => {
  const run = policy.start(start)
  const calls: string[] = []
  for (let call = run.act({}); call !== null; call = run.act({})) calls.push(call.name)
  return calls
}
const swapReads = (_observation: Observation, call: ToolCall) =>
  call.name === 'read' ? { name: 'ship', arguments: {} } : undefined

describe('perturbedPolicy', () => {
  it('rate 0 plays the base; rate 1 swaps every call the swap applies to and keeps the others', () => {
    expect(episode(perturbedPolicy({ name: 'p', base, rate: 0, seed: 1, swap: swapReads }))).toEqual([
      'read',
      'read',
      'read',
      'approve',
    ])
    expect(episode(perturbedPolicy({ name: 'p', base, rate: 1, seed: 1, swap: swapReads }))).toEqual([
      'ship',
      'ship',
      'ship',
      'approve',
    ])
  })

  it('is deterministic per seed and episode number, and differs between episodes', () => {
    const play = (seed: number) => {
      const policy = perturbedPolicy({ name: 'p', base, rate: 0.5, seed, swap: swapReads })
      return Array.from({ length: 20 }, () => episode(policy).join(','))
    }
    expect(play(7)).toEqual(play(7))
    expect(new Set(play(7)).size).toBeGreaterThan(1)
    expect(play(7)).not.toEqual(play(8))
    const swapped = play(7)
      .join(',')
      .split(',')
      .filter((call) => call === 'ship').length
    expect(swapped).toBeGreaterThan(15)
    expect(swapped).toBeLessThan(45)
  })
})
