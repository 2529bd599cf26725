import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { CanonicalRecord } from '../contracts/canonical-record.js'
import { allocateSizes, interleavedLabels, splitRecords } from './split-records.js'

function record(
  id: string,
  category: string,
  level: string,
  table = 't',
  status: CanonicalRecord['resolution_status'] = 'resolved',
): CanonicalRecord {
  return {
    id,
    key: id,
    label_status: 'labeled',
    metadata: {
      database_name: 'db',
      database_description: '',
      table_name: table,
      table_description: '',
      field_name: id,
      field_description: '',
      field_type: '',
      value: '',
    },
    classification: { level_1: '', level_2: '', level_3: '', level_4: category },
    data_level: level,
    schema_version: 2,
    resolution_status: status,
    ...(status === 'resolved'
      ? { target: { leaf_level: 'level_4', leaf_name: category, category_id: category, category_path: [category] } }
      : {}),
    split: null,
    split_exclusion_reason: null,
  } as CanonicalRecord
}

const options = { splitType: 'random' as const, ratios: [0.8, 0.1, 0.1] as const, seed: 42, levelField: 'data_level' }

describe('split sizes', () => {
  it('allocates exact totals by largest remainder, train never empty', () => {
    expect(allocateSizes(10, [0.8, 0.1, 0.1])).toEqual([8, 1, 1])
    expect(allocateSizes(7, [0.8, 0.1, 0.1])).toEqual([5, 1, 1])
    expect(allocateSizes(1, [0.1, 0.45, 0.45])).toEqual([1, 0, 0])
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5000 }), fc.double({ min: 0.05, max: 0.9, noNaN: true }), (total, train) => {
        const rest = (1 - train) / 2
        const sizes = allocateSizes(total, [train, rest, rest])
        expect(sizes.reduce((a, b) => a + b, 0)).toBe(total)
        for (const [index, size] of sizes.entries()) {
          expect(Math.abs(size - total * [train, rest, rest][index]!)).toBeLessThanOrEqual(1.0000001 + (index === 0 ? 1 : 0))
        }
      }),
    )
  })

  it('interleaves labels so that every window holds its share ±1', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 60 }), { minLength: 3, maxLength: 3 }),
        fc.nat(),
        fc.nat(),
        (sizes, start, length) => {
          const labels = interleavedLabels(sizes)
          const total = labels.length
          expect(sizes.map((_, split) => labels.filter((label) => label === split).length)).toEqual(sizes)
          if (total === 0) return
          const from = start % total
          const to = Math.min(total, from + (length % (total + 1)))
          for (let split = 0; split < 3; split++) {
            const count = labels.slice(from, to).filter((label) => label === split).length
            expect(Math.abs(count - ((to - from) * (sizes[split] as number)) / total)).toBeLessThan(2)
          }
        },
      ),
    )
  })
})

describe('splitRecords', () => {
  const records = Array.from({ length: 600 }, (_, index) =>
    record(
      `id-${String(index).padStart(4, '0')}`,
      `C${index % 7}`,
      `L${1 + (index % 3)}`,
      `table_${index % 40}`,
      index % 50 === 0 ? 'placeholder' : 'resolved',
    ),
  )

  it('is deterministic, order-insensitive and seed-dependent', () => {
    const once = splitRecords(records, options)
    expect(splitRecords(records, options)).toEqual(once)
    const shuffled = [...records].reverse()
    const byId = (list: CanonicalRecord[]) => Object.fromEntries(list.map((item) => [item.id, item.split]))
    expect(byId(splitRecords(shuffled, options).records)).toEqual(byId(once.records))
    expect(byId(splitRecords(records, { ...options, seed: 43 }).records)).not.toEqual(byId(once.records))
    expect(once.records.map((item) => item.id)).toEqual(records.map((item) => item.id))
    expect(records.every((item) => item.split === null)).toBe(true)
    expect(once.records.every((item, index) => item !== records[index])).toBe(true)
  })

  it('stratifies by category and level, excludes unresolved records with a reason, and reports coverage', () => {
    const { records: split, report } = splitRecords(records, options)
    expect(report.sizes).toEqual({ train: 470, val: 59, test: 59 })
    expect(report.excluded).toMatchObject({ count: 12, by_reason: { 'resolution_status:placeholder': 12 } })
    expect(
      split
        .filter((item) => item.resolution_status !== 'resolved')
        .every((item) => item.split === null && item.split_exclusion_reason === 'resolution_status:placeholder'),
    ).toBe(true)
    const strata = new Map<string, Record<string, number>>()
    for (const item of split.filter((entry) => entry.split)) {
      const key = `${item.target?.category_id}/${item.data_level}`
      const counts = strata.get(key) ?? { train: 0, val: 0, test: 0 }
      counts[item.split as string] = (counts[item.split as string] ?? 0) + 1
      strata.set(key, counts)
    }
    for (const counts of strata.values()) {
      const total = counts.train! + counts.val! + counts.test!
      expect(Math.abs(counts.train! - total * 0.8)).toBeLessThan(2)
      expect(Math.abs(counts.val! - total * 0.1)).toBeLessThan(2)
    }
    expect(report.train_coverage).toEqual({ missing_categories: [], missing_levels: [], moves: [] })
  })

  it('group splits keep each group together and exclude empty group keys', () => {
    const withEmpty = [...records, record('id-zzzz', 'C1', 'L1', '')]
    const { records: split, report } = splitRecords(withEmpty, {
      ...options,
      splitType: 'group',
      groupKey: 'metadata.table_name',
    })
    const splitsOf = new Map<string, Set<string>>()
    for (const item of split.filter((entry) => entry.split))
      splitsOf.set(item.metadata.table_name, (splitsOf.get(item.metadata.table_name) ?? new Set()).add(item.split as string))
    expect([...splitsOf.values()].every((set) => set.size === 1)).toBe(true)
    expect(report.excluded.by_reason['empty_group_key:metadata.table_name']).toBe(1)
    expect(report.sizes.val + report.sizes.test).toBeGreaterThan(0)
    expect(report.group_key).toBe('metadata.table_name')
  })
})

describe('identical prompts stay in one split (issue 16, fix 5)', () => {
  it('copies of a table in other databases follow the first copy, so no prompt key crosses splits', () => {
    // 40 tables, each copied into three databases: the same field and table names give the same prompt.
    const records: CanonicalRecord[] = []
    for (let table = 0; table < 40; table++)
      for (const database of ['ods', 'dwd', 'his']) {
        const copy = record(`${database}-${table}`, `C${table % 4}`, `L${(table % 3) + 1}`, `patient_${table}`)
        copy.metadata = { ...copy.metadata, database_name: database, field_name: `name_${table}` }
        records.push(copy)
      }
    const { records: split, report } = splitRecords(records, options)
    const splitsOf = new Map<string, Set<string>>()
    for (const item of split) {
      const key = `${item.metadata.field_name}/${item.metadata.table_name}`
      splitsOf.set(key, (splitsOf.get(key) ?? new Set()).add(item.split as string))
    }
    expect([...splitsOf.values()].every((splits) => splits.size === 1)).toBe(true)
    expect(report.joined_by_prompt_key).toBeGreaterThan(0)
    expect(report.cross_split_prompt_keys).toBe(0)
    expect(report.sizes.val + report.sizes.test).toBeGreaterThan(0)
  })

  it('a group split by database reports the prompt keys it lets cross', () => {
    const records = ['ods', 'dwd', 'his', 'lis'].flatMap((database) =>
      [0, 1, 2].map((table) => {
        const copy = record(`${database}-${table}`, 'C1', 'L1', `t${table}`)
        copy.metadata = { ...copy.metadata, database_name: database, field_name: `f${table}` }
        return copy
      }),
    )
    const { report } = splitRecords(records, { ...options, splitType: 'group', groupKey: 'metadata.database_name' })
    expect(report.cross_split_prompt_keys).toBe(3)
  })
})
