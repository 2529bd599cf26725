import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { pythonDumpsCompact } from '../../../core/python/python-json.js'
import { demoGradingTask } from '../demo/demo-task.js'
import { LegacyPromptBuilder } from './legacy-prompts.js'

describe('legacy prompt metadata text', () => {
  it('is compact json.dumps of the selected fields for any values: escapes, lone surrogates, non-strings, missing', () => {
    const task = demoGradingTask()
    const fields = task.taskConfig.metadata_fields
    const builder = new LegacyPromptBuilder(task, fields)
    const text = fc
      .array(fc.constantFrom('a', '钢', '"', '\\', '\n', '\u0001', '\u2028', '😀', '\ud800', '\udc00', '\\ud800'), {
        maxLength: 6,
      })
      .map((parts) => parts.join(''))
    const value = fc.oneof(text, text, fc.integer(), fc.constant(null), fc.constant(undefined))
    fc.assert(
      fc.property(fc.array(value, { minLength: fields.length, maxLength: fields.length }), (values) => {
        const metadata = Object.fromEntries(fields.map((field, index) => [field, values[index]]))
        const selected = Object.fromEntries(fields.map((field) => [field, metadata[field] ?? '']))
        expect(builder.metadataText(metadata)).toBe(pythonDumpsCompact(selected))
      }),
      { numRuns: 3000 },
    )
  })
})
