import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { CanonicalRecord } from '../contracts/canonical-record.js'
import { auditPassed, auditPromptConflicts, bundleAuditReports, conflictingRecordIds } from './prompt-conflict-audit.js'
import { PromptKeyGroups } from './prompt-key-groups.js'

const sha = (text: string) => createHash('sha256').update(text).digest('hex')
function record(
  id: string,
  field: string,
  table: string,
  category: string,
  level: string,
  split: 'train' | 'val' | 'test' | null = 'train',
  row?: number,
): CanonicalRecord {
  return {
    id,
    key: field,
    label_status: 'labeled',
    metadata: {
      database_name: 'db',
      database_description: '',
      table_name: table,
      table_description: '',
      field_name: field,
      field_description: '',
      field_type: '',
      value: '',
    },
    classification: { level_1: '', level_2: '', level_3: '', level_4: category },
    data_level: level,
    schema_version: 2,
    resolution_status: 'resolved',
    target: { leaf_level: 'level_4', leaf_name: category, category_id: category, category_path: [] },
    split,
    split_exclusion_reason: null,
    ...(row === undefined ? {} : { provenance: { source_file: 'data.xlsx', source_sha256: 'c'.repeat(64), sheet: '字段', row } }),
  } as CanonicalRecord
}
const audit = (records: CanonicalRecord[], split = 'all') =>
  auditPromptConflicts({
    dataset: 'plant',
    records,
    classificationSha256: 'a'.repeat(64),
    gradingSha256: 'b'.repeat(64),
    split,
    levelField: 'data_level',
    source: 'all.json',
  })

const optionsOf = (records: CanonicalRecord[]) => ({
  dataset: 'plant',
  records,
  classificationSha256: 'a'.repeat(64),
  gradingSha256: 'b'.repeat(64),
  split: 'all',
  levelField: 'data_level',
  source: 'all.json',
})

describe('prompt-conflict audit', () => {
  it('passes when equal prompt keys share one target', () => {
    const report = audit([
      record('1', 'coil_no', 'pr_coil', 'B4-1', 'L2'),
      record('2', 'COIL_NO', 'PR_COIL', 'B4-1', 'L2'),
      record('3', 'coil_no', 'other', 'C1-1', 'L3'),
    ])
    expect(report).toMatchObject({
      status: 'passed',
      records_audited: 3,
      prompt_keys: 2,
      conflict_keys: 0,
      conflicting_records: 0,
      conflicts: [],
    })
    expect(auditPassed(report)).toBe(true)
  })

  it('catches keys equal after NFKC, case folding and whitespace collapse, with hashes only', () => {
    const records = [
      record('1', 'emp_name', 'hr_employee', 'C5-1', 'L2'),
      record('2', 'ＥＭＰ＿ＮＡＭＥ', ' hr_employee ', 'C5-2', 'L4'),
      record('3', 'emp_name', 'hr_employee', 'C5-1', 'L3', 'val'),
      record('4', 'salary', 'hr_employee', 'C5-2', 'L4'),
    ]
    const report = audit(records)
    expect(report).toMatchObject({ status: 'failed', conflict_keys: 1, conflicting_records: 3 })
    const [conflict] = report.conflicts
    expect(conflict?.record_id_sha256).toEqual(['1', '2', '3'].map(sha).sort())
    expect(conflict?.target_sha256).toEqual(['C5-1\0L2', 'C5-2\0L4', 'C5-1\0L3'].map(sha).sort())
    expect(conflict?.prompt_key_sha256).toBe(sha(['emp_name\u001fhr_employee', 'a'.repeat(64), 'b'.repeat(64)].join('\0')))
    const text = JSON.stringify(report)
    for (const raw of ['emp_name', 'hr_employee', 'C5-1', 'L2']) expect(text.includes(raw)).toBe(false)
    // Audited for train, the conflict is still found whole: its val record is in it too.
    expect(audit(records, 'train')).toMatchObject({
      status: 'failed',
      records_audited: 3,
      records_checked: 4,
      conflicting_records: 3,
      conflicts: [{ splits: ['train', 'val'] }],
    })
    expect([...conflictingRecordIds(records, 'data_level')].sort()).toEqual(['1', '2', '3'])
  })

  it('groups records by prompt key; conflicting ids are every record of a group with two targets', () => {
    const records = [
      record('1', 'emp_name', 'hr_employee', 'C5-1', 'L2'),
      record('2', 'EMP_NAME', 'hr_employee', 'C5-2', 'L4'),
      record('3', 'salary', 'hr_employee', 'C5-2', 'L4'),
      record('4', 'Salary', ' hr_employee', 'C5-2', 'L4', 'val'),
      record('5', 'coil_no', 'pr_coil', 'B4-1', 'L2'),
      record('6', 'coil_no', 'pr_coil', 'B4-1', 'L3'),
    ]
    const options = { split: 'all', levelField: 'data_level', source: 'all.json' }
    const raw = PromptKeyGroups.of(records, options)
    const conflicting = raw.conflictingIds()
    expect([...conflicting].sort()).toEqual(['1', '2', '5', '6'])
    expect(
      [...raw.groups()].filter((group) => group.targets.length > 1).map(({ key, targets, ids }) => ({ key, targets, ids })),
    ).toEqual([
      { key: 'emp_name\u001fhr_employee', targets: ['C5-1\0L2', 'C5-2\0L4'], ids: ['1', '2'] },
      { key: 'coil_no\u001fpr_coil', targets: ['B4-1\0L2', 'B4-1\0L3'], ids: ['5', '6'] },
    ])
    expect(raw.crossSplitKeys).toBe(1)
    const remaining = records.filter((item) => !conflicting.has(item.id))
    expect(PromptKeyGroups.of(remaining, options).audited).toBe(2)
    expect(auditPromptConflicts(optionsOf(remaining))).toMatchObject({ status: 'failed', conflict_keys: 0, cross_split_keys: 1 })
  })

  it('fails when one prompt key is shown in two splits, even with one target (issue 16, fix 5)', () => {
    // Copies of a table in two databases: the same prompt, the same labels, in train and in val.
    const records = [
      record('1', 'salary', 'hr_employee', 'C5-2', 'L4'),
      record('2', 'Salary', ' hr_employee', 'C5-2', 'L4', 'val'),
      record('3', 'emp_name', 'hr_employee', 'C5-1', 'L2', 'val'),
    ]
    const report = auditPromptConflicts(optionsOf(records))
    expect(report).toMatchObject({ status: 'failed', conflict_keys: 0, cross_split_keys: 1 })
    expect(report.cross_split).toEqual([
      {
        prompt_key_sha256: expect.any(String),
        splits: ['train', 'val'],
        records: [
          { id: '1', split: 'train', record: 1, provenance: null },
          { id: '2', split: 'val', record: 2, provenance: null },
        ],
      },
    ])
    expect(auditPassed(report)).toBe(false)
    expect(auditPromptConflicts(optionsOf(records.slice(1))).cross_split_keys).toBe(0)
  })

  it('an audit of train catches a conflict whose records are both in test, naming ids and source rows (issue 24)', () => {
    // One field, L3 in the production database and L2 in its ODS copy: both records dealt to test.
    const prod = {
      ...record('p', 'card_no', 'pay_flow', 'C2-1', 'L3', 'test', 41),
      metadata: { ...record('p', 'card_no', 'pay_flow', 'C2-1', 'L3').metadata, database_name: 'prod' },
    }
    const ods = {
      ...record('o', 'card_no', 'pay_flow', 'C2-1', 'L2', 'test', 97),
      metadata: { ...prod.metadata, database_name: 'ods' },
    }
    const records = [record('t', 'amount', 'pay_flow', 'C2-2', 'L2', 'train', 12), prod, ods] as CanonicalRecord[]
    const report = audit(records, 'train')
    expect(report).toMatchObject({ status: 'failed', records_audited: 1, records_checked: 3, prompt_keys: 1, conflict_keys: 1 })
    expect(auditPassed(report)).toBe(false)
    expect(report.conflicts[0]).toMatchObject({
      record_count: 2,
      target_count: 2,
      splits: ['test'],
      records: [
        { id: 'o', split: 'test', record: 3, provenance: { source_file: 'data.xlsx', sheet: '字段', row: 97 } },
        { id: 'p', split: 'test', record: 2, provenance: { source_file: 'data.xlsx', sheet: '字段', row: 41 } },
      ],
    })
    // The keys counted for train are train's alone: the same as auditing the train records by themselves.
    const trainOnly = audit(records.slice(0, 1), 'train')
    expect([report.prompt_keys, report.prompt_key_sha256]).toEqual([trainOnly.prompt_keys, trainOnly.prompt_key_sha256])
    const text = JSON.stringify(report)
    for (const raw of ['card_no', 'pay_flow', 'C2-1', 'prod', 'ods']) expect(text.includes(raw)).toBe(false)
  })

  it('bundles per-dataset reports deterministically; a resolved record without a level is an error', () => {
    const a = audit([record('1', 'x', 't', 'A', 'L1')])
    const b = { ...audit([record('2', 'y', 't', 'B', 'L1'), record('3', 'y', 't', 'B', 'L2')]), dataset: 'mill' }
    const bundle = bundleAuditReports([b, a], 'all')
    expect(Object.keys(bundle.datasets)).toEqual(['mill', 'plant'])
    expect(bundle).toMatchObject({
      status: 'failed',
      records_audited: 3,
      prompt_keys: 2,
      conflict_keys: 1,
      conflicting_records: 2,
    })
    expect(bundleAuditReports([a, b], 'all')).toEqual(bundle)
    const missing = { ...record('9', 'z', 't', 'A', ''), data_level: '' }
    expect(() => audit([missing])).toThrowError(expect.objectContaining({ code: 'missing_level' }))
  })
})
