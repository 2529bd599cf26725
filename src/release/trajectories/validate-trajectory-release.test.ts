import { describe, expect, it } from 'vitest'
import { releaseIsValid, unexpectedFiles } from './validate-trajectory-release.js'

describe('unexpectedFiles', () => {
  it('names, in sorted order, every file but the splits, the export report and a validation report', () => {
    const names = ['zz.txt', 'train.parquet', 'export_report.json', 'validation.json', 'a.json', 'val.parquet', 'test.parquet']
    expect(unexpectedFiles(names)).toEqual(['unexpected file a.json in the release', 'unexpected file zz.txt in the release'])
  })
})

describe('releaseIsValid', () => {
  const clean = { rows: 1, error_count: 0, errors: [] }
  const report = {
    format: 'x',
    dataset: 'd',
    splits: { train: clean, val: clean, test: clean },
    cross_split_errors: [] as string[],
    report_errors: [] as string[],
    checks: [],
  } as unknown as Parameters<typeof releaseIsValid>[0]

  it('is valid only with no error anywhere', () => {
    expect(releaseIsValid(report)).toBe(true)
    expect(releaseIsValid({ ...report, report_errors: ['bad'] })).toBe(false)
    expect(releaseIsValid({ ...report, cross_split_errors: ['bad'] })).toBe(false)
    expect(releaseIsValid({ ...report, splits: { ...report.splits, test: { ...clean, error_count: 1 } } })).toBe(false)
  })
})
