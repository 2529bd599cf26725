/** Parsers never throw: random text built from the formats' own tags and JSON fragments always parses to data. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ChatTool } from './chat-message.js'
import { chatFormat, chatFormatIds } from './format-registry.js'

const tools: ChatTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } },
    },
  },
]
const fragments = [
  '<tool_call>',
  '</tool_call>',
  '<think>',
  '</think>',
  '<function=get_weather>',
  '<function=',
  '</function>',
  '<parameter=city>',
  '<parameter=days>',
  '</parameter>',
  '{"name": "get_weather", "arguments": {"city": "Paris"}}',
  '{"tool_calls": [',
  '{"tool_calls": [{"name": "get_weather", "arguments": {"days": "3"}}]}',
  '{',
  '}',
  '[',
  ']',
  '"',
  "'",
  '\\',
  '\n',
  ' ',
  '```json',
  '```',
  'get_weather',
  '"name": "get_weather"',
  '"days": 3',
  'None',
  'True',
  '🚀',
  '\u0000',
]
const garbage = fc
  .array(fc.oneof(fc.constantFrom(...fragments), fc.string({ maxLength: 6 })), { maxLength: 30 })
  .map((parts) => parts.join(''))

describe.each(chatFormatIds)('%s parser', (formatId) => {
  it('returns well-formed data for any text and never throws', () => {
    const format = chatFormat(formatId)
    fc.assert(
      fc.property(garbage, fc.boolean(), (text, openThink) => {
        const parsed = format.parse(text, { tools, openThink })
        expect(parsed.content === null || typeof parsed.content === 'string').toBe(true)
        expect(parsed.reasoning === null || typeof parsed.reasoning === 'string').toBe(true)
        for (const call of parsed.toolCalls) {
          expect(typeof call.name).toBe('string')
          expect(typeof call.arguments === 'string' || (typeof call.arguments === 'object' && call.arguments !== null)).toBe(true)
        }
        for (const issue of parsed.issues) expect(issue.code).toMatch(/^[a-z_]+$/)
        expect(parsed.repairs).toBe(parsed.issues.filter((issue) => issue.repaired).length)
      }),
      { numRuns: 3000 },
    )
  })
})
