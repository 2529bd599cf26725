/** The dataset loader's pure steps: one JSONL line to a row or its issues, and a refused reset's issues placed. */
import { describe, expect, it } from 'vitest'
import { InvalidInputError } from '../core/errors/invalid-input-error.js'
import { parseDatasetLine, resetIssues } from './load-dataset.js'

describe('parseDatasetLine', () => {
  it('keeps a row with an integer seed and every other field', () => {
    expect(parseDatasetLine('{"seed":3,"family":"x"}', 'rows.jsonl:1', 'env-v1')).toEqual({ row: { seed: 3, family: 'x' } })
    expect(parseDatasetLine('{"seed":3,"env_id":"env-v1"}', 'rows.jsonl:1', 'env-v1')).toEqual({
      row: { seed: 3, env_id: 'env-v1' },
    })
  })

  it('refuses a line that is not JSON at its file:line', () => {
    const parsed = parseDatasetLine('{"seed":', 'rows.jsonl:4', 'env-v1')
    expect('issues' in parsed && parsed.issues.map((issue) => [issue.code, issue.path])).toEqual([
      ['invalid_json', 'rows.jsonl:4'],
    ])
  })

  it('refuses a row without an integer seed, at the field', () => {
    const parsed = parseDatasetLine('{"seed":1.5}', 'rows.jsonl:2', 'env-v1')
    expect('issues' in parsed && parsed.issues.map((issue) => issue.path)).toEqual(['rows.jsonl:2:seed'])
  })

  it('refuses a row for another env', () => {
    expect(parseDatasetLine('{"seed":1,"env_id":"other-v2"}', 'rows.jsonl:9', 'env-v1')).toEqual({
      issues: [{ code: 'env_mismatch', path: 'rows.jsonl:9:env_id', message: 'Row is for other-v2, not env-v1.' }],
    })
  })
})

describe('resetIssues', () => {
  it("places each issue of the env's refusal under the row's file:line", () => {
    const error = new InvalidInputError({
      code: 'invalid_reset_options',
      message: 'bad reset',
      issues: [
        { code: 'unknown_family', path: 'options.family', message: 'no such family' },
        { code: 'bad', path: '', message: 'whole row' },
      ],
    })
    expect(resetIssues(error, 'rows.jsonl:3')).toEqual([
      { code: 'unknown_family', path: 'rows.jsonl:3:options.family', message: 'no such family' },
      { code: 'bad', path: 'rows.jsonl:3', message: 'whole row' },
    ])
  })

  it('uses the error itself when it lists no issues', () => {
    const error = new InvalidInputError({ code: 'invalid_reset_options', message: 'bad reset', issues: [] })
    expect(resetIssues(error, 'rows.jsonl:3')).toEqual([
      { code: 'invalid_reset_options', path: 'rows.jsonl:3', message: 'bad reset' },
    ])
  })
})
