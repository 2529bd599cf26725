import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ChatFormat } from '../../../chat/chat-format.js'
import type { ChatMessage } from '../../../chat/chat-message.js'
import { chatFormat } from '../../../chat/format-registry.js'
import { JinjaTemplate } from '../../../chat/jinja-template.js'
import { gradingV1Spec } from '../../../envs/grading/grading-env.js'
import { trajectoryTools } from '../trajectory-tools.js'
import { SystemPrefixRenderer } from './system-prefix-renderer.js'

const tools = trajectoryTools(gradingV1Spec)
const words = fc.constantFrom(
  '',
  ' ',
  '\n',
  '钢卷',
  'coil_no',
  '<think>',
  '</think>',
  '<tool_response>',
  '</tool_response>',
  '{"a": 1}',
  '  x  ',
)
const content = fc.array(words, { maxLength: 6 }).map((parts) => parts.join(''))
const call = fc.record({ choice_ids: fc.array(fc.constantFrom('3', '7', '12'), { minLength: 1, maxLength: 3 }) })
const assistant = fc.record({
  content,
  reasoning: fc.option(content, { nil: undefined }),
  calls: fc.array(call, { maxLength: 2 }),
})
/** A trajectory's shape: system, user, then assistant turns, each call answered by a tool message. */
const conversation = fc
  .record({
    system: fc.constantFrom('You classify one field.', ' catalog\n1|A\n', ''),
    user: content,
    turns: fc.array(assistant, { minLength: 1, maxLength: 3 }),
    tool: content,
  })
  .map(({ system, user, turns, tool }) => {
    const messages: ChatMessage[] = [
      { role: 'system', content: system },
      { role: 'user', content: `Classify ${user}` },
    ]
    for (const turn of turns) {
      messages.push({
        role: 'assistant',
        content: turn.content,
        ...(turn.reasoning === undefined ? {} : { reasoning_content: turn.reasoning }),
        ...(turn.calls.length
          ? {
              tool_calls: turn.calls.map((args) => ({
                type: 'function' as const,
                function: { name: 'get_category_details', arguments: args },
              })),
            }
          : {}),
      })
      for (const _ of turn.calls) messages.push({ role: 'tool', content: tool })
    }
    return messages
  })

describe('SystemPrefixRenderer', () => {
  for (const id of ['qwen3.5', 'qwen3.5-nothink']) {
    it(`gives the ${id} template's text for the whole conversation (property)`, () => {
      const format = chatFormat(id)
      const renderer = new SystemPrefixRenderer(format, tools, 1_000_000)
      fc.assert(
        fc.property(conversation, fc.option(fc.boolean(), { nil: undefined }), (messages, enableThinking) => {
          const whole = format.render({
            messages,
            tools,
            addGenerationPrompt: false,
            ...(enableThinking === undefined ? {} : { enableThinking }),
          })
          return renderer.render({ messages, tools, ...(enableThinking === undefined ? {} : { enableThinking }) }) === whole
        }),
        { numRuns: 150 },
      )
    })
  }

  it('refuses, rather than miscounts, a template whose later turns depend on the system message', () => {
    const template = new JinjaTemplate(
      'echo',
      '{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}{% if tools %}T{% endif %}[{{ messages[0].content }}]',
    )
    const format = {
      id: 'echo',
      render: (options) => template.render({ messages: options.messages, tools: options.tools }),
    } as ChatFormat
    expect(() =>
      new SystemPrefixRenderer(format, tools).render({
        messages: [
          { role: 'system', content: 's' },
          { role: 'user', content: 'q' },
        ],
        tools,
      }),
    ).toThrowError(expect.objectContaining({ code: 'render_shortcut_mismatch' }))
  })
})
