/**
 * The compiled row check agrees with zod's parse of the row schema: on valid rows, and on thousands of
 * random single mutations of them (a key dropped, added, set to another type, emptied, a role or class
 * changed, a message or call added) it says yes exactly when `safeParse` succeeds.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { envTools } from '../../agent/episode-prompt.js'
import { demoGradingTask } from '../../envs/grading/demo/demo-task.js'
import { gradingV1Spec } from '../../envs/grading/grading-env.js'
import { TrajectoryBuilder } from './build-trajectory.js'
import { compileRowCheck, objectCheck, variantsCheck } from './compiled-row-check.js'
import { mockThoughts } from './think/mock-thoughts.js'
import { trajectoryRow, trajectoryRowSchema } from './trajectory-row.js'

const task = demoGradingTask()
const builder = new TrajectoryBuilder(task)
const metadata = {
  field_name: 'furnace_no',
  table_name: 'sm_converter_heat',
  field_description: '炉号',
  table_description: '转炉炉次',
}
const rows = ['n', 'd', 'a', 'c'].map((sourceId) => {
  const trajectory = builder.build({ sourceId, metadata, groundTruth: 'C1-1', groundTruthLevel: 'L2' })
  const thoughts = mockThoughts(trajectory)
  return trajectoryRow({
    trajectory,
    thoughts: { ...thoughts, truncated: false, discarded: false },
    thinkSource: 'mock',
    dataset: 'steel_demo',
    tools: envTools(gradingV1Spec),
  })
})
const check = compileRowCheck(trajectoryRowSchema)

/** Every path to an object or array inside a value. */
function containers(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return []
  const inner = Object.entries(value).flatMap(([key, item]) =>
    containers(item, [...path, Array.isArray(value) ? Number(key) : key]),
  )
  return [path, ...inner]
}

const replacements: unknown[] = [
  '',
  'x',
  'system',
  'tool',
  'direct',
  'nope',
  0,
  1.5,
  true,
  null,
  undefined,
  [],
  {},
  [{}],
  { role: 'user', content: '' },
]

describe('compiled row check', () => {
  it('accepts every valid row', () => {
    for (const row of rows) {
      expect(trajectoryRowSchema.safeParse(row).success).toBe(true)
      expect(check(row)).toBe(true)
    }
  })

  it('agrees with zod on random single mutations', () => {
    const outcomes = { valid: 0, invalid: 0 }
    fc.assert(
      fc.property(
        fc.nat(rows.length - 1),
        fc.nat(),
        fc.nat(),
        fc.nat(replacements.length - 1),
        fc.boolean(),
        (rowIndex, pathSeed, keySeed, replacementIndex, addKey) => {
          const row = structuredClone(rows[rowIndex]) as unknown as Record<string, unknown>
          const paths = containers(row)
          const path = paths[pathSeed % paths.length] as (string | number)[]
          const target = path.reduce<unknown>((value, key) => (value as Record<string | number, unknown>)[key], row) as Record<
            string,
            unknown
          >
          const keys = Object.keys(target)
          const replacement = structuredClone(replacements[replacementIndex])
          if (addKey || keys.length === 0) {
            if (Array.isArray(target)) target.push(replacement)
            else target[`extra_${keySeed % 3}`] = replacement
          } else {
            const key = keys[keySeed % keys.length] as string
            if (replacementIndex === 0 && !Array.isArray(target)) delete target[key]
            else target[key] = replacement
          }
          const success = trajectoryRowSchema.safeParse(row).success
          outcomes[success ? 'valid' : 'invalid']++
          expect(check(row)).toBe(success)
        },
      ),
      { numRuns: 4000 },
    )
    // Both kinds of mutation were exercised.
    expect(outcomes.valid).toBeGreaterThan(200)
    expect(outcomes.invalid).toBeGreaterThan(200)
  })
})

describe('compiled row check: its steps alone', () => {
  it('objectCheck: required keys, property checks, and other keys as additionalProperties says', () => {
    const schema = { properties: { a: { type: 'integer' } }, required: ['a'] }
    const closed = objectCheck({ ...schema, additionalProperties: false }, '$')
    expect(closed({ a: 1 })).toBe(true)
    expect(closed({})).toBe(false)
    expect(closed({ a: 'x' })).toBe(false)
    expect(closed({ a: 1, b: 2 })).toBe(false)
    expect(closed([1])).toBe(false)
    const strings = objectCheck({ ...schema, additionalProperties: { type: 'string' } }, '$')
    expect(strings({ a: 1, b: 'x' })).toBe(true)
    expect(strings({ a: 1, b: 2 })).toBe(false)
    expect(() => objectCheck({ propertyNames: { type: 'integer' } }, '$')).toThrow(/non-string propertyNames/)
  })

  it('variantsCheck: a tagged union picks its variant by the tag; an untagged one needs exactly one match', () => {
    const tagged = variantsCheck(
      [
        { type: 'object', properties: { kind: { const: 'a' }, n: { type: 'integer' } }, required: ['kind'] },
        { type: 'object', properties: { kind: { const: 'b' }, n: { type: 'string' } }, required: ['kind'] },
      ],
      '$',
    )
    expect(tagged({ kind: 'a', n: 1 })).toBe(true)
    expect(tagged({ kind: 'b', n: 1 })).toBe(false)
    expect(tagged({ kind: 'c' })).toBe(false)
    const untagged = variantsCheck([{ type: 'integer' }, { type: 'string', minLength: 1 }, { type: 'string' }], '$')
    expect(untagged(3)).toBe(true)
    expect(untagged('')).toBe(true)
    expect(untagged('x')).toBe(false)
  })
})
