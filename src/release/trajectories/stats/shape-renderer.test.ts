import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ChatFormat } from '../../../chat/chat-format.js'
import type { ChatMessage } from '../../../chat/chat-message.js'
import { chatFormat } from '../../../chat/format-registry.js'
import { JinjaTemplate } from '../../../chat/jinja-template.js'
import { gradingV1Spec } from '../../../envs/grading/grading-env.js'
import { trajectoryTools } from '../trajectory-tools.js'
import { ShapeRenderer } from './shape-renderer.js'

const tools = trajectoryTools(gradingV1Spec)
// Words chosen to take the template's other paths: whitespace at the ends, the tags it tests for, JSON
// quotes and escapes, the placeholder characters themselves, Python-only whitespace (U+0085, U+3000).
const words = fc.constantFrom(
  '',
  ' ',
  '\n',
  '\u0085',
  '\u3000',
  '钢卷',
  'coil_no',
  '<think>',
  '</think>',
  '<tool_response>',
  '</tool_response>',
  '{"a": 1}',
  '\\',
  '\uE000',
  '\uE0010\uE001',
  '  x  ',
)
const content = fc.array(words, { maxLength: 6 }).map((parts) => parts.join(''))
const argument = fc.oneof(
  content,
  fc.array(fc.oneof(fc.constantFrom('3', '7', '12'), content), { minLength: 1, maxLength: 3 }),
  fc.integer({ min: -3, max: 3 }),
  fc.boolean(),
  fc.record({ inner: content }),
)
const call = fc.oneof(
  fc.record({ choice_ids: argument }),
  fc.record({ field_name: argument, table_name: argument }),
  fc.constant('{"field_name": " a", "n": [1, "x"]}'),
)
// An assistant content with its thought inline is split by the template when no reasoning_content is given.
const inline = fc.constantFrom('a</think>b', '<think>\nr\n</think>\n\n{"answer": "1"}', 'x</think>')
const assistant = fc.record({
  content: fc.option(fc.oneof(content, inline), { nil: null }),
  reasoning: fc.option(content, { nil: undefined, freq: 2 }),
  calls: fc.array(call, { maxLength: 2 }),
})
/** A trajectory's shape: system, user, then assistant turns, each call answered by a tool message. */
const conversation = fc
  .record({
    system: fc.oneof(fc.constantFrom('You classify one field.', ' catalog\n1|A\n', ''), content),
    user: content,
    turns: fc.array(assistant, { minLength: 1, maxLength: 3 }),
    tool: content,
    name: fc.constantFrom('get_category_details', 'search_categories', ' odd name'),
  })
  .map(({ system, user, turns, tool, name }) => {
    const messages: ChatMessage[] = [
      { role: 'system', content: system },
      { role: 'user', content: `Classify ${user}` },
    ]
    turns.forEach((turn, index) => {
      messages.push({
        role: 'assistant',
        content: turn.content,
        ...(turn.reasoning === undefined ? {} : { reasoning_content: turn.reasoning }),
        ...(turn.calls.length
          ? {
              tool_calls: turn.calls.map((args, position) => ({
                id: `call_${index}_${position}`,
                type: 'function' as const,
                function: { name, arguments: args as never },
              })),
            }
          : {}),
      })
      for (const [position] of turn.calls.entries())
        messages.push({ role: 'tool', content: tool, tool_call_id: `call_${index}_${position}`, name })
    })
    return messages
  })

describe('ShapeRenderer', () => {
  for (const id of ['qwen3.5', 'qwen3.5-nothink']) {
    it(`gives the ${id} template's text for the whole conversation (property)`, () => {
      const format = chatFormat(id)
      // One renderer across all runs, checking no row whole after the first of its shape: shapes are reused.
      const renderer = new ShapeRenderer(format, tools, 1_000_000)
      fc.assert(
        fc.property(conversation, fc.option(fc.boolean(), { nil: undefined }), (messages, enableThinking) => {
          const options = { messages, tools, ...(enableThinking === undefined ? {} : { enableThinking }) }
          const whole = format.render({ ...options, addGenerationPrompt: false })
          return renderer.render(options) === whole && renderer.render(options) === whole
        }),
        { numRuns: 300 },
      )
    })
  }

  it('renders a shape once for rows that differ only in their text', () => {
    const format = chatFormat('qwen3.5')
    let calls = 0
    const render = (options: Parameters<ChatFormat['render']>[0]) => {
      calls++
      return format.render(options)
    }
    const counted = { ...format, render }
    const renderer = new ShapeRenderer(counted as ChatFormat, tools, 1_000_000)
    const row = (field: string) => ({
      tools,
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: `Classify ${field}` },
        { role: 'assistant', content: '{"answer": "1"}', reasoning_content: `about ${field}` },
      ] as ChatMessage[],
    })
    for (const field of ['coil_no', '钢卷号', 'grade']) expect(renderer.render(row(field))).toBe(format.render(row(field)))
    // The first row: its shape and the whole-row check; the other two: no template call at all.
    expect(calls).toBe(2)
  })

  it('renders whole a row whose text holds a placeholder character', () => {
    const format = chatFormat('qwen3.5')
    const renderer = new ShapeRenderer(format, tools, 1_000_000)
    const messages: ChatMessage[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: ' \uE0000\uE001 kept as written' },
      { role: 'assistant', content: 'done' },
    ]
    expect(renderer.render({ messages, tools })).toBe(format.render({ messages, tools, addGenerationPrompt: false }))
  })

  it('refuses, rather than miscounts, a template that transforms a string it writes', () => {
    const template = new JinjaTemplate('echo', '{% for m in messages %}<{{ m.role }}>{{ m.content | upper }}{% endfor %}')
    const format = {
      id: 'echo',
      render: (options) => template.render({ messages: options.messages, tools: options.tools }),
    } as ChatFormat
    expect(() =>
      new ShapeRenderer(format, tools).render({
        messages: [
          { role: 'system', content: 's' },
          { role: 'user', content: 'q' },
        ],
        tools,
      }),
    ).toThrowError(expect.objectContaining({ code: 'render_shortcut_mismatch' }))
  })
})
