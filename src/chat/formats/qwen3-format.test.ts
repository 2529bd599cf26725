import { describe, expect, it } from 'vitest'
import type { ChatTool } from '../chat-message.js'
import { parseQwen3 } from './qwen3-format.js'

const tools: ChatTool[] = [
  {
    type: 'function',
    function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
  },
]
const codes = (text: string, openThink = false) => parseQwen3(text, { tools, openThink }).issues.map((issue) => issue.code)

describe('qwen3 (Hermes) parser', () => {
  it('reads reasoning, content and several calls the way vLLM hermes + qwen3 reasoning parsers do', () => {
    const parsed = parseQwen3(
      '<think>\nCheck both.\n</think>\n\nLooking.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "東京"}}\n</tool_call>',
      { tools },
    )
    expect(parsed).toEqual({
      content: 'Looking.',
      reasoning: 'Check both.',
      toolCalls: [
        { name: 'get_weather', arguments: { city: 'Paris' } },
        { name: 'get_weather', arguments: { city: '東京' } },
      ],
      issues: [],
      repairs: 0,
    })
  })

  it('with an open think in the prompt, text up to </think> is reasoning', () => {
    const parsed = parseQwen3('plan\n</think>\n\nanswer', { openThink: true })
    expect([parsed.reasoning, parsed.content]).toEqual(['plan', 'answer'])
    expect(parseQwen3('never closed', { openThink: true })).toMatchObject({ reasoning: 'never closed', content: null })
    expect(codes('never closed', true)).toEqual(['unterminated_think'])
  })

  it('an unterminated trailing call is accepted (as vLLM does) and counted as a repair', () => {
    const parsed = parseQwen3('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Rome"}}', { tools })
    expect(parsed.toolCalls).toEqual([{ name: 'get_weather', arguments: { city: 'Rome' } }])
    expect(parsed.issues.map((issue) => [issue.code, issue.repaired])).toEqual([['unterminated_tool_call', true]])
    expect(parsed.repairs).toBe(1)
  })

  it('bad bodies become coded issues and lose only their own call', () => {
    const text =
      '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Par\n</tool_call>\n<tool_call>\n{"arguments": {}}\n</tool_call>\n<tool_call>\n{"name": "launch_rocket", "arguments": {}}\n</tool_call>\n<tool_call>\n{"name": "get_weather", "arguments": "{\\"city\\": \\"Oslo\\"}"}\n</tool_call>\n<tool_call>\n{"name": "get_weather", "arguments": [1]}\n</tool_call> trailing'
    const parsed = parseQwen3(text, { tools })
    expect(parsed.issues.map((issue) => issue.code)).toEqual([
      'text_after_tool_call',
      'invalid_json',
      'missing_name',
      'unknown_tool',
      'string_arguments',
      'invalid_arguments',
    ])
    expect(parsed.toolCalls).toEqual([
      { name: 'launch_rocket', arguments: {} },
      { name: 'get_weather', arguments: { city: 'Oslo' } },
      { name: 'get_weather', arguments: '[1]' },
    ])
  })

  it('plain text is content with no issues; stray closing tags are reported', () => {
    expect(parseQwen3('The answer is 4.')).toEqual({
      content: 'The answer is 4.',
      reasoning: null,
      toolCalls: [],
      issues: [],
      repairs: 0,
    })
    expect(codes('done </tool_call>')).toEqual(['stray_tag'])
  })
})
