import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { demoGradingTask } from './demo/demo-task.js'
import { quickEpisodeSource, schemaEpisodeSource } from './grading-episode-source.js'

const task = demoGradingTask()
const levelField = task.grading.gt_field

/** Values a field may hold: mostly well-formed strings, else padded or empty ones and every wrong JSON type. */
const wrongValue = fc.oneof(
  fc.constantFrom('', '   ', 'pending'),
  fc.integer(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.string(), { maxKeys: 3 }),
)
const anyValue = fc.oneof(
  { arbitrary: fc.constantFrom('L2', ' L3 ', 'resolved', 'x', '炉号'), weight: 6 },
  { arbitrary: fc.string({ minLength: 1 }), weight: 3 },
  { arbitrary: wrongValue, weight: 1 },
)
const metadata = fc.oneof(
  {
    arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string(), fc.integer(), fc.constant(null)), {
      maxKeys: 4,
    }),
    weight: 9,
  },
  { arbitrary: wrongValue, weight: 1 },
)
const objectOr = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary, weight: 9 }, { arbitrary: wrongValue as fc.Arbitrary<unknown>, weight: 1 })
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined })
const withoutUndefined = (value: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined))

const row = fc
  .record({
    reward_model: objectOr(fc.record({ ground_truth: anyValue }).map(withoutUndefined)),
    extra_info: objectOr(
      fc.record({ source_id: anyValue, metadata, ground_truth_level: anyValue, extra: maybe(fc.string()) }).map(withoutUndefined),
    ),
  })
  .map(withoutUndefined)
const record = fc
  .record({
    id: anyValue,
    resolution_status: maybe(anyValue),
    metadata,
    target: objectOr(fc.record({ category_id: anyValue }).map(withoutUndefined)),
    [levelField]: anyValue,
  })
  .map(withoutUndefined)
const options = fc.oneof(
  row.map((value) => ({ row: value })),
  record.map((value) => ({ record: value })),
  fc.record({ row, record }),
  fc.record({ row, seed: fc.integer() }),
)

function schemaOutcome(value: Record<string, unknown>): unknown {
  try {
    return schemaEpisodeSource(value, task)
  } catch {
    return 'refused'
  }
}

describe('quickEpisodeSource', () => {
  it('agrees with the schemas wherever it answers, and leaves every refused input to them', () => {
    let answered = 0
    fc.assert(
      fc.property(options, (value) => {
        const quick = quickEpisodeSource(value, levelField)
        if (quick === undefined) return
        answered++
        expect(quick).toStrictEqual(schemaOutcome(value))
      }),
      { numRuns: 20_000, seed: 7 },
    )
    // Both outcomes are exercised: a fair share of the inputs is well formed.
    expect(answered).toBeGreaterThan(200)
    expect(answered).toBeLessThan(19_000)
  })

  it('answers the well-formed row and record shapes the env is reset with', () => {
    const metadataValue = { field_name: '炉号', table_name: 'heat' }
    const fromRow = {
      row: {
        reward_model: { ground_truth: ' C1 ' },
        extra_info: { source_id: 's', metadata: metadataValue, ground_truth_level: 'L2' },
      },
    }
    const fromRecord = { record: { id: 's', metadata: metadataValue, target: { category_id: 'C1' }, [levelField]: 'L2' } }
    for (const value of [fromRow, fromRecord]) {
      const quick = quickEpisodeSource(value, levelField)
      expect(quick).toStrictEqual({ sourceId: 's', metadata: metadataValue, groundTruth: 'C1', groundTruthLevel: 'L2' })
      expect(quick?.metadata).not.toBe(metadataValue)
    }
  })
})
