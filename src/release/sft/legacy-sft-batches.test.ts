import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { demoGradingTask } from '../../envs/grading/demo/demo-task.js'
import { LegacyPromptBuilder } from '../../envs/grading/legacy/legacy-prompts.js'
import type { ColumnBatch } from '../parquet/plain-columns.js'
import type { RecordRowInput } from '../planning/record-plan.js'
import { LegacySftBatchBuilder, legacySftBatches } from './legacy-sft-batches.js'

const task = demoGradingTask()
const builder = new LegacyPromptBuilder(task)
const fields = task.taskConfig.metadata_fields
const categories = task.registry.categories.map((category) => category.category_id)
const input = fc.record({
  id: fc.uuid(),
  groundTruth: fc.constantFrom(...categories),
  level: fc.constantFrom(...task.grading.levels),
  metadata: fc.record({
    field_name: fc.string(),
    table_name: fc.string(),
    field_description: fc.string(),
    table_description: fc.string({ unit: 'binary' }),
  }),
})

/** Every column's values, row by row, decoded from the PLAIN bytes. */
function decodeRows(batch: ColumnBatch): string[][][] {
  const rows: string[][][] = Array.from({ length: batch.rows }, () => [])
  for (const column of batch.columns) {
    const view = new DataView(column.bytes)
    let position = 0
    column.rowEnds.forEach((end, row) => {
      const values: string[] = []
      while (position < end) {
        const length = view.getUint32(position, true)
        values.push(Buffer.from(column.bytes, position + 4, length).toString('utf8'))
        position += 4 + length
      }
      rows[row]?.push(values)
    })
    expect(position).toBe(column.length)
  }
  return rows
}

/** The row the string builder renders, as leaf column values. */
function expectedRows(record: RecordRowInput): string[][][] {
  const text = builder.build({
    sourceId: record.id,
    metadata: record.metadata,
    groundTruth: record.groundTruth,
    level: record.level,
  })
  return (['stage1', 'stage2'] as const).map((stage) => [
    ['system', 'user', 'assistant'],
    [...text[stage]],
    [stage],
    [record.id],
    ...fields.map((field) => [record.metadata[field] ?? '']),
    [record.groundTruth],
    text.candidates,
    [record.level],
  ])
}

describe('legacy SFT column batches', () => {
  it('hold exactly the prompts, answers and labels the string builder renders, for any metadata', () => {
    fc.assert(
      fc.property(fc.array(input, { minLength: 1, maxLength: 5 }), (inputs) => {
        const batches = [...legacySftBatches({ inputs, batches: new LegacySftBatchBuilder(builder, fields) })]
        expect(batches).toHaveLength(1)
        expect(decodeRows(batches[0] as ColumnBatch)).toEqual(inputs.flatMap(expectedRows))
      }),
      { numRuns: 120 },
    )
  })

  it('split inputs into batches whose buffers grow when a batch outgrows them', () => {
    const inputs = Array.from({ length: 7 }, (_, index) => ({
      id: `id-${index}`,
      groundTruth: categories[index] as string,
      level: 'L2',
      metadata: { field_name: 'x'.repeat(5000), table_name: 't', field_description: '', table_description: '' },
    }))
    const builderOfBatches = new LegacySftBatchBuilder(builder, fields, 64)
    const decoded: string[][][] = []
    const sizes: number[] = []
    const seen = new Set<ArrayBuffer>()
    for (const batch of legacySftBatches({ inputs, batches: builderOfBatches, batchRecords: 3 })) {
      for (const column of batch.columns) expect(column.length).toBeLessThanOrEqual(column.bytes.byteLength)
      // Decoded before recycling: the next batch reuses these buffers.
      decoded.push(...decodeRows(batch))
      sizes.push(batch.rows)
      for (const column of batch.columns) seen.add(column.bytes)
      builderOfBatches.recycle(batch)
    }
    expect(sizes).toEqual([6, 6, 2])
    expect(decoded).toEqual(inputs.flatMap(expectedRows))
    // Handed-back buffers are reused: three batches, but at most two buffers a column.
    expect(seen.size).toBeLessThanOrEqual(2 * (fields.length + 8))
  })
})
