import { describe, expect, it } from 'vitest'
import { formalGateBounds } from '../../eval/gate/rollout-gate-rule.js'
import { boundsRefusals, denominatorRefusals, modelRefusals } from './gate-evidence.js'

type Report = Parameters<typeof boundsRefusals>[0]
const report = (fields: Record<string, unknown>) => fields as unknown as Report
const codes = (refusals: { code: string }[]) => refusals.map((refusal) => refusal.code)

describe('gate refusals, step by step', () => {
  it('boundsRefusals accepts only the formal bounds of a formal run', () => {
    const formal = { ...formalGateBounds, formal: true }
    expect(boundsRefusals(report({ rule: formal }))).toEqual([])
    expect(codes(boundsRefusals(report({ rule: { ...formal, upper: 0.5 } })))).toEqual(['gate_bounds_not_formal'])
    expect(boundsRefusals(report({ rule: { ...formal, formal: false } }))[0]?.message).toMatch(/not a formal run/)
  })

  it('denominatorRefusals: the whole split or 200 episodes, a given minimum, and a missing split', () => {
    const scored = (denominator: number) => report({ denominator, limits: { samples: 4 } })
    expect(denominatorRefusals({ report: scored(40), rows: 10, split: 'val' })).toEqual([])
    expect(codes(denominatorRefusals({ report: scored(39), rows: 10, split: 'val' }))).toEqual(['gate_denominator_below_minimum'])
    expect(denominatorRefusals({ report: scored(200), rows: 100, split: 'val' })).toEqual([])
    expect(denominatorRefusals({ report: scored(5), rows: 100, split: 'val', minDenominator: 5 })).toEqual([])
    expect(denominatorRefusals({ report: scored(500), rows: null, split: 'val' })).toEqual([
      { code: 'gate_split_mismatch', message: 'the release has no val split' },
    ])
  })

  it('modelRefusals: the served root is the base, or the adapter on the base', () => {
    const served = (root: unknown, parent?: string) => report({ model: { name: 'm', served: { root, parent } } })
    const base = { model_path: '/models/base' }
    expect(modelRefusals(served('/models/base'), base)).toEqual([])
    expect(codes(modelRefusals(served('/models/other'), base))).toEqual(['gate_model_mismatch'])
    expect(codes(modelRefusals(served(undefined), base))).toEqual(['gate_model_unidentified'])
    const lora = { ...base, lora_adapter_path: '/models/adapter' }
    expect(modelRefusals(served('/models/adapter', '/models/base'), lora)).toEqual([])
    expect(codes(modelRefusals(served('/models/base'), lora))).toEqual(['gate_model_mismatch'])
  })
})
