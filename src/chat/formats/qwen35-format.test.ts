import { describe, expect, it } from 'vitest'
import type { ChatTool } from '../chat-message.js'
import { parseQwen35 } from './qwen35-format.js'

const tools: ChatTool[] = [
  {
    type: 'function',
    function: {
      name: 'search',
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string' },
          limit: { type: 'integer' },
          ratio: { type: 'number' },
          exact: { type: 'boolean' },
          tags: { type: 'array' },
          filters: { type: 'object' },
          cursor: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        },
      },
    },
  },
]

const call = (parameters: string) => `<tool_call>\n<function=search>\n${parameters}</function>\n</tool_call>`
const parameter = (key: string, value: string) => `<parameter=${key}>\n${value}\n</parameter>\n`

describe('qwen3.5 (XML) parser', () => {
  it('types every value by the tool schema, as vLLM qwen3_coder does', () => {
    const parsed = parseQwen35(
      `Searching now.\n\n${call(
        parameter('query', '  spaced  \nmulti-line ') +
          parameter('limit', '25') +
          parameter('ratio', '2.5e-3') +
          parameter('exact', 'True') +
          parameter('tags', '["a", "b"]') +
          parameter('filters', "{'owner': 'qa', 'active': True, 'left': None}") +
          parameter('cursor', 'None'),
      )}`,
      { tools },
    )
    expect(parsed.issues).toEqual([])
    expect(parsed.content).toBe('Searching now.')
    expect(parsed.toolCalls).toEqual([
      {
        name: 'search',
        arguments: {
          query: '  spaced  \nmulti-line ',
          limit: 25,
          ratio: 0.0025,
          exact: true,
          tags: ['a', 'b'],
          filters: { owner: 'qa', active: true, left: null },
          cursor: null,
        },
      },
    ])
  })

  it('wrong types, unknown parameters and unknown tools are issues; the values are kept for the env to reject', () => {
    const parsed = parseQwen35(
      `${call(parameter('limit', 'ten') + parameter('exact', 'maybe') + parameter('colour', '{"a": 1}') + parameter('limit', '3'))}\n<tool_call>\n<function=rm_rf>\n${parameter('path', '/')}</function>\n</tool_call>`,
      { tools },
    )
    expect(parsed.issues.map((issue) => `${issue.code}:${issue.path}`)).toEqual([
      'invalid_argument_type:tool_calls.0.arguments.limit',
      'invalid_argument_type:tool_calls.0.arguments.exact',
      'unknown_parameter:tool_calls.0.arguments.colour',
      'duplicate_parameter:tool_calls.0.arguments.limit',
      'unknown_tool:tool_calls.1.name',
    ])
    expect(parsed.toolCalls).toEqual([
      { name: 'search', arguments: { limit: 'ten', exact: 'maybe', colour: '{"a": 1}' } },
      { name: 'rm_rf', arguments: { path: '/' } },
    ])
  })

  it('unterminated parameter, function and tool call are read leniently and counted as repairs', () => {
    const parsed = parseQwen35('<tool_call>\n<function=search>\n<parameter=query>\nabc\n<parameter=limit>\n7\n', { tools })
    expect(parsed.toolCalls).toEqual([{ name: 'search', arguments: { query: 'abc', limit: 7 } }])
    expect(parsed.issues.map((issue) => issue.code)).toEqual([
      'unterminated_tool_call',
      'unterminated_function',
      'unterminated_parameter',
      'unterminated_parameter',
    ])
    expect(parsed.repairs).toBe(4)
  })

  it('a call without <function=…> is dropped with missing_name', () => {
    const parsed = parseQwen35('<tool_call>\n{"name": "search"}\n</tool_call>', { tools })
    expect(parsed.toolCalls).toEqual([])
    expect(parsed.issues.map((issue) => issue.code)).toEqual(['missing_name'])
  })

  it('reasoning from an open think prompt; empty think blocks give null reasoning', () => {
    expect(parseQwen35('weigh options\n</think>\n\nok', { openThink: true })).toMatchObject({
      reasoning: 'weigh options',
      content: 'ok',
    })
    expect(parseQwen35('<think>\n\n</think>\n\nok')).toMatchObject({ reasoning: null, content: 'ok' })
  })
})
