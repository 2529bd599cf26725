/**
 * Every format speaks what its template renders and reads back what it speaks:
 * - prefix: render(prompt, generation prompt) + formatAssistant(reply) + `<|im_end|>\n` equals
 *   render(prompt + reply), so a scripted model's completion is byte for byte the official template's turn;
 * - round trip: parse(formatAssistant(reply)) gives back the reply's content, reasoning and typed calls.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { JsonObject } from '../core/json/json-value.js'
import type { AssistantMessage, ChatMessage, ChatTool } from './chat-message.js'
import { chatFormat, chatFormatIds } from './format-registry.js'

const tools: ChatTool[] = [
  {
    type: 'function',
    function: {
      name: 'search_records',
      description: 'Search records.',
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string' },
          limit: { type: 'integer' },
          threshold: { type: 'number' },
          exact: { type: 'boolean' },
          mode: { type: 'string', enum: ['fast', 'full'] },
          tags: { type: 'array', items: { type: 'string' } },
          filters: { type: 'object' },
          cursor: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        },
        required: ['query'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'hold_release',
      description: 'Hold.',
      parameters: { type: 'object', properties: { reason_code: { type: 'string' } } },
    },
  },
]

const forbidden = /<\/?(tool_call|think|parameter|function)|<\|im_|```|[{}]/
const text = fc.string({ unit: 'grapheme', maxLength: 40 }).filter((value) => !forbidden.test(value))
const trimmedText = text.map((value) => value.trim())
const argumentsArbitrary: fc.Arbitrary<{ name: string; arguments: JsonObject }> = fc.oneof(
  fc
    .record(
      {
        query: text.filter((value) => value.trim() !== 'None'),
        limit: fc.integer({ min: -1000, max: 100000 }),
        threshold: fc.double({ min: -1e6, max: 1e6, noNaN: true }).filter((value) => !Number.isInteger(value)),
        exact: fc.boolean(),
        mode: fc.constantFrom('fast', 'full'),
        tags: fc.array(text, { maxLength: 3 }),
        filters: fc.dictionary(fc.constantFrom('owner', 'kind', '名'), fc.oneof(text, fc.integer(), fc.boolean()), {
          maxKeys: 3,
        }),
        cursor: fc.option(
          text.filter((value) => value !== 'None' && value !== 'null'),
          { nil: null },
        ),
      },
      { requiredKeys: ['query'] },
    )
    .map((args) => ({ name: 'search_records', arguments: args as JsonObject })),
  fc.record({ reason_code: text }).map((args) => ({ name: 'hold_release', arguments: args })),
)

const reply = fc.record({
  content: trimmedText,
  reasoning: trimmedText,
  calls: fc.array(argumentsArbitrary, { maxLength: 3 }),
})

const prompt: ChatMessage[] = [
  { role: 'system', content: 'You are a careful agent.' },
  { role: 'user', content: 'Find the records, then hold the release.' },
]

function assistant(
  value: { content: string; reasoning: string; calls: { name: string; arguments: JsonObject }[] },
  withReasoning: boolean,
): AssistantMessage {
  const message: AssistantMessage = { role: 'assistant', content: value.content }
  if (withReasoning) message.reasoning_content = value.reasoning
  if (value.calls.length > 0) {
    message.tool_calls = value.calls.map((call, index) => ({ id: `call_${index}`, type: 'function', function: call }))
  }
  return message
}

describe.each(chatFormatIds)('%s format', (formatId) => {
  const format = chatFormat(formatId)
  for (const enableThinking of [undefined, true, false]) {
    it(`prefix property and parse round trip (enable_thinking=${enableThinking})`, () => {
      fc.assert(
        fc.property(reply, (value) => {
          const message = assistant(value, enableThinking !== false)
          const openThink = format.opensThink(enableThinking)
          const thinkingDisabled = enableThinking === false || (formatId === 'qwen3.5-nothink' && enableThinking === undefined)
          const options = enableThinking === undefined ? {} : { enableThinking }
          const completion = format.formatAssistant(message, { openThink, thinkingDisabled, tools })
          const generation = format.render({ messages: prompt, tools, addGenerationPrompt: true, ...options })
          const full = format.render({ messages: [...prompt, message], tools, addGenerationPrompt: false, ...options })
          if (!thinkingDisabled || !message.reasoning_content) expect(`${generation}${completion}<|im_end|>\n`).toBe(full)
          const parsed = format.parse(completion, { tools, openThink })
          expect(parsed.toolCalls).toEqual(value.calls)
          expect(parsed.issues).toEqual([])
          expect(parsed.repairs).toBe(0)
          if (formatId !== 'json-tool-calls') expect(parsed.content ?? '').toBe(value.content)
          if (!thinkingDisabled) expect(parsed.reasoning ?? '').toBe(value.reasoning)
        }),
        { numRuns: 150 },
      )
    })
  }
})
