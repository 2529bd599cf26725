import { describe, expect, it } from 'vitest'
import type { ChatTool } from '../chat-message.js'
import { parseJsonToolCalls } from './json-tool-calls-parser.js'

const tools: ChatTool[] = [
  {
    type: 'function',
    function: {
      name: 'block_proposal',
      parameters: {
        type: 'object',
        properties: { proposal_id: { type: 'string' }, rule_id: { type: 'string', enum: ['S1', 'S2', 'S3'] } },
      },
    },
  },
  {
    type: 'function',
    function: { name: 'set_limit', parameters: { type: 'object', properties: { limit: { type: 'integer' } } } },
  },
]
const block = { name: 'block_proposal', arguments: { proposal_id: 'p17', rule_id: 'S2' } }
const parse = (text: string) => parseJsonToolCalls(text, { tools })
const repairCodes = (text: string) => parse(text).issues.map((issue) => `${issue.code}${issue.repaired ? '*' : ''}`)

describe('json-tool-calls parser', () => {
  it('the strict shape parses with no issue and no repair', () => {
    expect(parse('{"tool_calls": [{"name": "block_proposal", "arguments": {"proposal_id": "p17", "rule_id": "S2"}}]}')).toEqual({
      content: null,
      reasoning: null,
      toolCalls: [block],
      issues: [],
      repairs: 0,
    })
    expect(parse('{"tool_calls": []}')).toMatchObject({ toolCalls: [], issues: [], content: null })
  })

  it.each([
    [
      'code fence',
      '```json\n{"tool_calls": [{"name": "block_proposal", "arguments": {"proposal_id": "p17", "rule_id": "S2"}}]}\n```',
      ['code_fence*'],
    ],
    [
      'text around',
      'Sure! {"tool_calls": [{"name": "block_proposal", "arguments": {"proposal_id": "p17", "rule_id": "S2"}}]} Done.',
      ['text_around_json*'],
    ],
    ['missing wrapper', '{"name": "block_proposal", "arguments": {"proposal_id": "p17", "rule_id": "S2"}}', ['missing_wrapper*']],
    [
      'tool key, flat arguments',
      '{"tool": "block_proposal", "proposal_id": "p17", "rule_id": "S2"}',
      ['missing_wrapper*', 'key_alias*', 'flat_arguments*'],
    ],
    [
      'tool_name + parameters',
      '{"tool_calls": [{"tool_name": "block_proposal", "parameters": {"proposal_id": "p17", "rule_id": "S2"}}]}',
      ['key_alias*', 'key_alias*'],
    ],
    [
      'OpenAI shape, string arguments',
      '{"tool_calls": [{"function": {"name": "block_proposal", "arguments": "{\\"proposal_id\\": \\"p17\\", \\"rule_id\\": \\"S2\\"}"}}]}',
      ['key_alias*', 'string_arguments*'],
    ],
    [
      'single quotes, trailing comma',
      "{'tool_calls': [{'name': 'block_proposal', 'arguments': {'proposal_id': 'p17', 'rule_id': 'S2',}}]}",
      ['single_quotes*', 'trailing_comma*'],
    ],
    [
      'enum case',
      '{"tool_calls": [{"name": "block_proposal", "arguments": {"proposal_id": "p17", "rule_id": "s2"}}]}',
      ['coerced_argument*'],
    ],
    [
      'regex fallback',
      'I will call "name": "block_proposal" with "proposal_id": "p17" and "rule_id": "S2" now',
      ['regex_extracted*'],
    ],
  ])('repairs %s, and counts it', (_label, text, expected) => {
    const parsed = parse(text)
    expect(parsed.toolCalls).toEqual([block])
    expect(repairCodes(text)).toEqual(expected)
    expect(parsed.repairs).toBe(expected.length)
  })

  it('coerces numeric strings for integer parameters; leaves what cannot convert for the env', () => {
    expect(parse('{"tool_calls": [{"name": "set_limit", "arguments": {"limit": "12"}}]}').toolCalls).toEqual([
      { name: 'set_limit', arguments: { limit: 12 } },
    ])
    const bad = parse('{"tool_calls": [{"name": "set_limit", "arguments": {"limit": "twelve"}}]}')
    expect(bad.toolCalls).toEqual([{ name: 'set_limit', arguments: { limit: 'twelve' } }])
    expect(bad.issues).toEqual([])
  })

  it('prose without JSON or a tool name is invalid_json, kept as content; unknown tools are reported', () => {
    expect(parse('I am not sure what to do.')).toMatchObject({ content: 'I am not sure what to do.', toolCalls: [], repairs: 0 })
    expect(repairCodes('I am not sure what to do.')).toEqual(['invalid_json'])
    expect(repairCodes('{"tool_calls": [{"name": "format_disk", "arguments": {}}]}')).toEqual(['unknown_tool'])
    expect(repairCodes('{"tool_calls": [{"arguments": {}}]}')).toEqual(['missing_name'])
  })

  it('think blocks are reasoning, not repairs', () => {
    const parsed = parse(
      '<think>\nS2 applies.\n</think>\n\n{"tool_calls": [{"name": "block_proposal", "arguments": {"proposal_id": "p17", "rule_id": "S2"}}]}',
    )
    expect(parsed).toMatchObject({ reasoning: 'S2 applies.', toolCalls: [block], repairs: 0, issues: [] })
  })
})
