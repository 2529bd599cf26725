/** The suite's case list: the groups concatenate to the same names in the same order, with skips applied. */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { AnyEnv } from '../env/env-api.js'
import { defineTool } from '../tools/define-tool.js'
import { envConformanceCases } from './env-conformance.js'

const spec = {
  id: 'probe-v1',
  description: 'probe',
  tools: [defineTool({ name: 'look', description: 'Look.', inputSchema: z.object({}) })],
  maxEpisodeSteps: 3,
  deterministic: true,
  invalidActionReward: -0.1,
  defaultSeed: 0,
}
// Listing the cases reads only the spec; no case is run here.
const createEnv = () => ({ spec }) as unknown as AnyEnv

describe('envConformanceCases', () => {
  it('lists the cases in their order, the fuzz case naming its call count', () => {
    const names = envConformanceCases({ createEnv, resets: [], fuzzCalls: 500 }).map((testCase) => testCase.name)
    expect(names).toEqual([
      'spec is well formed',
      'step before reset throws reset_needed',
      'same seed and calls give byte-identical trajectories',
      'bad calls are data: coded error, penalty, episode goes on',
      'fuzz: 500 random and malformed calls never throw',
      'episodes are truncated at maxEpisodeSteps, then need a reset',
      'reset results, state and renders are JSON and text',
    ])
  })

  it('marks the cases named in skip with their reason', () => {
    const cases = envConformanceCases({ createEnv, resets: [{ seed: 1 }], skip: { 'spec is well formed': 'no spec' } })
    expect(cases.map((testCase) => testCase.skipReason ?? null)).toEqual(['no spec', null, null, null, null, null, null])
    expect(cases[4]?.name).toBe('fuzz: 10000 random and malformed calls never throw')
  })
})
