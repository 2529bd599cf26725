import { describe, expect, it } from 'vitest'
import type { ProcessedRecord } from '../contracts/processed-record.js'
import { canonicalRecord } from './build-canonical.js'
import type { Resolution } from './resolve-target.js'

const record = (): ProcessedRecord =>
  ({
    id: 'r1',
    key: 'k',
    classification: { level_1: 'A', level_2: 'B (C01)', level_3: '', level_4: '' },
    label_notes: [{ field: 'level_2', code: 'C01', action: 'stripped', written: 'B (C01)' }],
  }) as unknown as ProcessedRecord

const resolved: Resolution = {
  status: 'resolved',
  rule: 'leaf_only',
  reason: '',
  target: { category_id: 'c1' } as unknown as NonNullable<Resolution['target']>,
  leaf: 'B',
  categoryId: 'c1',
}

describe('canonicalRecord', () => {
  it('adds the canonical keys in a fixed order and drops what was written from the notes', () => {
    const canonical = canonicalRecord(record(), resolved, false) as unknown as Record<string, unknown>
    expect(Object.keys(canonical)).toEqual([
      'id',
      'key',
      'classification',
      'label_notes',
      'schema_version',
      'resolution_status',
      'target',
      'resolution_rule',
      'split',
      'split_exclusion_reason',
    ])
    expect(canonical.label_notes).toEqual([{ field: 'level_2', code: 'C01', action: 'stripped' }])
  })

  it('keeps the written labels and notes their codes as kept when they resolved as written', () => {
    const written = { level_1: 'A', level_2: 'B (C01)', level_3: '', level_4: '' }
    const canonical = canonicalRecord(record(), { ...resolved, rule: 'as_written', written }, false)
    expect(canonical.classification).toBe(written)
    expect(canonical.label_notes).toEqual([{ field: 'level_2', code: 'C01', action: 'kept' }])
    expect(canonical).not.toHaveProperty('resolution_rule')
  })

  it('records the reason, not a target, of an unresolved record', () => {
    const unresolved: Resolution = { status: 'missing_leaf', reason: 'no leaf B', leaf: 'B', categoryId: '' }
    const canonical = canonicalRecord(record(), unresolved, false) as unknown as Record<string, unknown>
    expect(canonical.resolution_reason).toBe('no leaf B')
    expect(canonical).not.toHaveProperty('target')
  })

  it('copies the record unless it is adopted', () => {
    const source = record()
    expect(canonicalRecord(source, resolved, false)).not.toBe(source)
    expect(source).not.toHaveProperty('schema_version')
    expect(canonicalRecord(source, resolved, true)).toBe(source)
  })
})
