import { describe, expect, it } from 'vitest'
import { bundleInputs, singleInput } from './run-prompt-audit.js'

describe('bundleInputs', () => {
  it("pairs each dataset's three paths, sorted by dataset name", () => {
    const inputs = bundleInputs({
      canonical: ['shop=s.jsonl', 'bank=b.jsonl'],
      classificationStandard: ['bank=bc.json', 'shop=sc.json'],
      gradingStandard: ['shop=sg.json', 'bank=bg.json'],
    })
    expect(inputs).toEqual([
      { dataset: 'bank', canonical: 'b.jsonl', classification: 'bc.json', grading: 'bg.json' },
      { dataset: 'shop', canonical: 's.jsonl', classification: 'sc.json', grading: 'sg.json' },
    ])
  })

  it('refuses a flag that names other datasets, an entry without a name, a name twice, and an empty bundle', () => {
    const base = { canonical: ['a=x'], classificationStandard: ['a=y'], gradingStandard: ['a=z'] }
    expect(() => bundleInputs({ ...base, gradingStandard: ['b=z'] })).toThrow(/--grading-standard must name exactly/)
    expect(() => bundleInputs({ ...base, canonical: ['x'] })).toThrow(/must be DATASET=PATH/)
    expect(() => bundleInputs({ ...base, canonical: ['a=x', 'a=w'] })).toThrow(/names dataset "a" twice/)
    expect(() => bundleInputs({ canonical: [], classificationStandard: [], gradingStandard: [] })).toThrow(
      /at least one --canonical/,
    )
  })
})

describe('singleInput', () => {
  it('takes one path of each kind, under the dataset name or "dataset"', () => {
    const paths = { canonical: ['c'], classificationStandard: ['k'], gradingStandard: ['g'] }
    expect(singleInput(paths)).toEqual({ dataset: 'dataset', canonical: 'c', classification: 'k', grading: 'g' })
    expect(singleInput({ ...paths, dataset: 'shop' }).dataset).toBe('shop')
  })

  it('refuses two paths of a kind', () => {
    expect(() => singleInput({ canonical: ['c', 'd'], classificationStandard: ['k'], gradingStandard: ['g'] })).toThrow(
      expect.objectContaining({ code: 'invalid_option', path: '--canonical' }),
    )
  })
})
