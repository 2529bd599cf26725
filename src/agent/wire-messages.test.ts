import { describe, expect, it } from 'vitest'
import type { ChatMessage, ChatTool } from '../chat/chat-message.js'
import { fromWireMessage, toWireMessages } from './wire-messages.js'

const tools: ChatTool[] = [
  { type: 'function', function: { name: 'hold_release', parameters: { type: 'object', properties: {} } } },
]

describe('wire messages', () => {
  const messages: ChatMessage[] = [
    { role: 'user', content: 'go' },
    {
      role: 'assistant',
      content: null,
      reasoning_content: 'think',
      tool_calls: [
        {
          id: 'c1',
          type: 'function',
          function: { name: 'hold_release', arguments: { reason_code: 'risk_too_high', note: 'é' } },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'c1', content: '{"ok": true}' },
  ]

  it('send arguments as Python-style JSON strings and keep or drop reasoning', () => {
    const wire = toWireMessages(messages)
    expect(wire[1]).toEqual({
      role: 'assistant',
      content: null,
      reasoning_content: 'think',
      tool_calls: [
        {
          id: 'c1',
          type: 'function',
          function: { name: 'hold_release', arguments: '{"reason_code": "risk_too_high", "note": "é"}' },
        },
      ],
    })
    expect(toWireMessages(messages, { reasoning: false })[1]).not.toHaveProperty('reasoning_content')
    expect(messages[1]).toHaveProperty('reasoning_content', 'think')
  })

  it('decode what comes back, keep undecodable arguments as text with an issue, and give ids to calls without', () => {
    const mapped = fromWireMessage({
      turn: 4,
      tools,
      message: {
        role: 'assistant',
        content: null,
        reasoning: 'hmm',
        tool_calls: [
          { id: 'srv-1', type: 'function', function: { name: 'hold_release', arguments: '{"reason_code": "awaiting_fix"}' } },
          { type: 'function', function: { name: 'hold_release', arguments: '{"reason_code": ' } },
          { type: 'function', function: { name: 'fly', arguments: '' } },
          { type: 'function', function: { arguments: '{}' } },
        ],
      },
    })
    expect(mapped.toolCalls).toEqual([
      { name: 'hold_release', arguments: { reason_code: 'awaiting_fix' } },
      { name: 'hold_release', arguments: '{"reason_code": ' },
      { name: 'fly', arguments: {} },
    ])
    expect(mapped.message.tool_calls?.map((call) => call.id)).toEqual(['srv-1', 'call_4_1', 'call_4_2'])
    expect(mapped.message.reasoning_content).toBe('hmm')
    expect(mapped.issues.map((issue) => `${issue.code}:${issue.path}`)).toEqual([
      'invalid_json:tool_calls.1.function.arguments',
      'unknown_tool:tool_calls.2.function.name',
      'missing_name:tool_calls.3.function.name',
    ])
  })

  it('point at a missing tool parser when the content holds raw tool-call text', () => {
    const mapped = fromWireMessage({
      turn: 0,
      tools,
      message: { role: 'assistant', content: '<tool_call>\n{"name": "hold_release"}\n</tool_call>' },
    })
    expect(mapped.toolCalls).toEqual([])
    expect(mapped.issues[0]).toMatchObject({ code: 'stray_tag', message: expect.stringContaining('--tool-call-parser') })
  })
})
