import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fastMessage } from './fast-message.js'
import { wsMessageSchemas } from './wire-schemas.js'

const value = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 300 }),
  fc.boolean(),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
)
const key = fc.constantFrom('type', 'data', 'request_id', 'extra')
const dataKey = fc.constantFrom('tool', 'arguments', 'seed', 'episode_id', 'options', 'type', 'tool_name', 'metadata', 'prompt')
const message = fc.record({
  type: fc.constantFrom('step', 'reset', 'state', 'close', 'mcp', 'other'),
  rest: fc.dictionary(key, value, { maxKeys: 2 }),
  data: fc.option(fc.dictionary(dataKey, value, { maxKeys: 4 }), { nil: undefined }),
})

describe('fastMessage', () => {
  it('accepts only what the zod schemas accept, with the same result', () => {
    let accepted = 0
    fc.assert(
      fc.property(message, ({ type, rest, data }) => {
        const candidate: Record<string, unknown> = JSON.parse(
          JSON.stringify({ ...rest, type, ...(data === undefined ? {} : { data }) }),
        )
        const fast = fastMessage(candidate)
        if (fast === undefined) return
        accepted++
        const schema = wsMessageSchemas[type as keyof typeof wsMessageSchemas]
        const parsed = schema.safeParse(candidate)
        expect(parsed.success).toBe(true)
        expect(fast).toEqual(parsed.data)
      }),
      { numRuns: 20_000 },
    )
    expect(accepted).toBeGreaterThan(500)
  })

  it('takes the common shapes and leaves the rest to the schemas', () => {
    expect(
      fastMessage({ type: 'step', data: { tool: 'hold_release', arguments: { reason_code: 'x' } }, request_id: 'r' }),
    ).toEqual({
      type: 'step',
      data: { tool: 'hold_release', arguments: { reason_code: 'x' } },
      request_id: 'r',
    })
    expect(fastMessage({ type: 'reset', data: { seed: 3, family: 'f' } })).toEqual({
      type: 'reset',
      data: { seed: 3, family: 'f' },
    })
    expect(fastMessage({ type: 'reset' })).toEqual({ type: 'reset' })
    for (const slow of [
      { type: 'step', data: { type: 'list_tools' } },
      { type: 'step', data: { tool: 'x', extra: 1 } },
      { type: 'step', data: {} },
      { type: 'reset', data: { seed: 1.5 } },
      { type: 'reset', data: { options: [] } },
      { type: 'state' },
      { type: 'step', data: { tool: 'x' }, request_id: { a: 1 } },
      { type: 'step', data: { tool: 'x' }, id: 1 },
    ]) {
      expect(fastMessage(slow as Record<string, unknown>)).toBeUndefined()
    }
  })
})
