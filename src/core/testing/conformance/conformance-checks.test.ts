/** The conformance checks alone, on hand-made step results, and the bad calls derived from a tool's schema. */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { EnvSpec, StepResult } from '../../env/env-api.js'
import { defineTool } from '../../tools/define-tool.js'
import { badCalls } from './bad-call-cases.js'
import { ConformanceError, checkStepShape, thrownCode } from './conformance-checks.js'

const tool = defineTool({ name: 'look', description: 'Look.', inputSchema: z.strictObject({ at: z.string() }) })
const spec: EnvSpec = {
  id: 'probe-v1',
  description: 'probe',
  tools: [tool],
  maxEpisodeSteps: 3,
  deterministic: true,
  invalidActionReward: -0.1,
  defaultSeed: 0,
  unfinishedEpisodeReward: -1,
}
const call = { name: 'look', arguments: {} }
const result = (fields: Partial<StepResult>): StepResult => ({
  observation: {},
  reward: 0,
  terminated: false,
  truncated: false,
  info: { cumulative_reward: 0, step_count: 1 },
  ...fields,
})
const bad = { observation: { error: { code: 'invalid_arguments', message: 'no' } } }

describe('checkStepShape', () => {
  it('accepts a valid step and a bad call that costs the penalty', () => {
    expect(() => checkStepShape('t', result({}), spec, call)).not.toThrow()
    expect(() => checkStepShape('t', result({ ...bad, reward: -0.1 }), spec, call)).not.toThrow()
  })

  it("adds the unfinished-episode reward to a bad call's cost when the call truncates the episode", () => {
    expect(() => checkStepShape('t', result({ ...bad, reward: -1.1, truncated: true }), spec, call)).not.toThrow()
    expect(() => checkStepShape('t', result({ ...bad, reward: -0.1, truncated: true }), spec, call)).toThrow(
      '[t] a bad call must cost -1.1, got -0.1',
    )
  })

  it('refuses a non-finite reward, non-boolean flags and an observation that is not plain JSON, coded', () => {
    const refused = [
      result({ reward: Number.NaN }),
      result({ terminated: 'no' as never }),
      result({ observation: { at: new Date() as never } }),
    ]
    for (const step of refused) {
      let caught: unknown
      try {
        checkStepShape('t', step, spec, call)
      } catch (error) {
        caught = error
      }
      expect(ConformanceError.isInstance(caught) && caught.code).toBe('conformance_failed')
    }
  })
})

describe('thrownCode', () => {
  it('gives the code of a sync or async throw, and undefined when nothing is thrown', async () => {
    const coded = Object.assign(new Error('x'), { code: 'reset_needed' })
    expect(
      await thrownCode(() => {
        throw coded
      }),
    ).toBe('reset_needed')
    expect(await thrownCode(async () => Promise.reject(coded))).toBe('reset_needed')
    expect(await thrownCode(() => 1)).toBeUndefined()
  })
})

describe('badCalls', () => {
  it('lists unknown names and non-object arguments, then a missing required field and an extra one', () => {
    const calls = badCalls(tool)
    expect(calls.map((item) => item.name).slice(0, 3)).toEqual(['no_such_tool', '', '__proto__'])
    expect(calls.slice(-2)).toEqual([
      { name: 'look', arguments: {} },
      { name: 'look', arguments: { surely_not_a_field: 1 } },
    ])
    expect(calls).toHaveLength(10)
  })
})
