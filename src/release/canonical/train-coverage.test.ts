import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { CanonicalRecord } from '../contracts/canonical-record.js'
import { splitRecords } from './split-records.js'
import { keepEveryLabelInTrain, tooSmallForValTest } from './train-coverage.js'

function record(options: { id: string; category: string; level: string; table?: string; field?: string }): CanonicalRecord {
  return {
    id: options.id,
    key: options.id,
    label_status: 'labeled',
    metadata: {
      database_name: 'db',
      database_description: '',
      table_name: options.table ?? 't',
      table_description: '',
      field_name: options.field ?? options.id,
      field_description: '',
      field_type: '',
      value: '',
    },
    classification: { level_1: '', level_2: '', level_3: options.category, level_4: '' },
    data_level: options.level,
    schema_version: 2,
    resolution_status: 'resolved',
    target: {
      leaf_level: 'level_3',
      leaf_name: options.category,
      category_id: options.category,
      category_path: [options.category],
    },
    split: null,
    split_exclusion_reason: null,
  } as CanonicalRecord
}

/** A 40-row catalogue as a new data owner has one: 15 categories, most with one to three records. */
function smallCatalogue(): CanonicalRecord[] {
  const sizes = [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 4, 5, 6]
  const records: CanonicalRecord[] = []
  sizes.forEach((size, category) => {
    for (let n = 0; n < size; n++)
      records.push(record({ id: `r${category}-${n}`, category: `C${category}`, level: `L${(category % 4) + 1}` }))
  })
  return records
}

const options = { splitType: 'random' as const, ratios: [0.8, 0.1, 0.1] as const, seed: 42, levelField: 'data_level' }
const trainLabels = (records: CanonicalRecord[], field: (record: CanonicalRecord) => string) =>
  new Set(records.filter((item) => item.split === 'train').map(field))

describe('a split that trains on every category (issue 33, item 5)', () => {
  it('a 40-row catalogue: every category and level in train with any seed, sizes as the ratios ask', () => {
    const records = smallCatalogue()
    expect(records.length).toBe(40)
    const categories = new Set(records.map((item) => item.target?.category_id))
    for (let seed = 1; seed <= 60; seed++) {
      const { records: split, report } = splitRecords(records, { ...options, seed })
      expect(
        trainLabels(split, (item) => item.target?.category_id as string),
        `seed ${seed}`,
      ).toEqual(categories)
      expect(trainLabels(split, (item) => item.data_level).size).toBe(4)
      expect(report.sizes).toEqual({ train: 32, val: 4, test: 4 })
      expect(report.train_coverage.missing_categories).toEqual([])
      // Singletons are in train whatever the seed.
      for (const single of ['C0', 'C1', 'C2', 'C3'])
        expect(split.find((item) => item.target?.category_id === single)?.split).toBe('train')
    }
  })

  it('moves the first record of a category train lacks, with its prompt group, and names the move', () => {
    const records = smallCatalogue()
    const seeds = Array.from({ length: 60 }, (_, index) => index + 1)
    const moved = seeds
      .map((seed) => splitRecords(records, { ...options, seed }).report)
      .filter((report) => report.train_coverage.moves.length > 0)
    // Without the moves most seeds left a category out of train, as issue 33 measured.
    expect(moved.length).toBeGreaterThan(30)
    const report = moved[0] as (typeof moved)[number]
    const toTrain = report.train_coverage.moves.filter((entry) => entry.to === 'train')
    const swaps = report.train_coverage.moves.filter((entry) => entry.reason === 'swap')
    expect(toTrain.length).toBeGreaterThan(0)
    expect(toTrain.every((entry) => entry.reason === `category:${entry.category_id}` || entry.reason.startsWith('level:'))).toBe(
      true,
    )
    expect(swaps.length).toBe(toTrain.length)
    // The record moved is its category's first in id order.
    for (const entry of toTrain.filter((item) => item.reason.startsWith('category:'))) {
      const ids = records.filter((item) => item.target?.category_id === entry.category_id).map((item) => item.id)
      expect(entry.id).toBe(ids.sort()[0])
    }
    expect(report.too_small_for_val_test).toEqual([
      { category_id: 'C0', records: 1 },
      { category_id: 'C1', records: 1 },
      { category_id: 'C2', records: 1 },
      { category_id: 'C3', records: 1 },
      { category_id: 'C4', records: 2 },
      { category_id: 'C5', records: 2 },
      { category_id: 'C6', records: 2 },
      { category_id: 'C7', records: 2 },
    ])
  })

  it('only the named records move; prompt groups stay whole; labels never leave train; sizes hold when a swap exists', () => {
    const pool = fc.array(
      fc.record({
        category: fc.integer({ min: 0, max: 7 }),
        level: fc.integer({ min: 0, max: 4 }),
        table: fc.integer({ min: 0, max: 5 }),
        split: fc.integer({ min: 0, max: 2 }),
      }),
      { minLength: 1, maxLength: 60 },
    )
    fc.assert(
      fc.property(pool, (rows) => {
        const records = rows.map((row, index) =>
          record({
            id: `r${String(index).padStart(3, '0')}`,
            category: `C${row.category}`,
            level: `L${row.level}`,
            table: `t${row.table}`,
            field: `f${index % 7}`,
          }),
        )
        // Prompt groups start in one split, as the join leaves them.
        const first = new Map<string, number>()
        const before = records.map((item, index) => {
          const key = `${item.metadata.table_name}/${item.metadata.field_name}`
          if (!first.has(key)) first.set(key, (rows[index] as { split: number }).split)
          return first.get(key) as number
        })
        const after = [...before]
        const moves = keepEveryLabelInTrain({ records, levelField: 'data_level' }, after)
        const changed = records.filter((_, index) => before[index] !== after[index]).map((item) => item.id)
        expect(new Set(moves.map((entry) => entry.id))).toEqual(new Set(changed))
        const inTrain = (labels: (item: CanonicalRecord) => string, assignment: number[]) =>
          new Set(records.filter((_, index) => assignment[index] === 0).map(labels))
        expect(inTrain((item) => item.target?.category_id as string, after)).toEqual(
          new Set(records.map((item) => item.target?.category_id)),
        )
        expect(inTrain((item) => item.data_level, after)).toEqual(new Set(records.map((item) => item.data_level)))
        const splitOf = new Map<string, number>()
        records.forEach((item, index) => {
          const key = `${item.metadata.table_name}/${item.metadata.field_name}`
          expect(splitOf.get(key) ?? after[index]).toBe(after[index])
          splitOf.set(key, after[index] as number)
        })
        if (moves.length === 0) expect(after).toEqual(before)
        const swaps = moves.filter((entry) => entry.reason === 'swap').length
        const into = moves.filter((entry) => entry.reason !== 'swap').length
        if (swaps === into)
          for (const split of [0, 1, 2])
            expect(after.filter((value) => value === split).length).toBe(before.filter((value) => value === split).length)
      }),
      { numRuns: 300, seed: 33 },
    )
  })

  it('a group split moves nothing: it reports what train lacks', () => {
    const records = smallCatalogue().map((item, index) => ({
      ...item,
      metadata: { ...item.metadata, table_name: `t${index % 9}` },
    }))
    const { report } = splitRecords(records, { ...options, splitType: 'group', groupKey: 'metadata.table_name' })
    expect(report.train_coverage.moves).toEqual([])
    expect(report.too_small_for_val_test.length).toBe(8)
    expect(tooSmallForValTest({ records: [], levelField: 'data_level' })).toEqual([])
  })
})
