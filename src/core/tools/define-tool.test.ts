import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool, parseToolArguments, toOpenAiTool } from './define-tool.js'

const inspect = defineTool({
  name: 'inspect_pr_diff',
  description: 'Inspect a pull request diff.',
  inputSchema: z.strictObject({
    pr_id: z.string().describe('Pull request id such as pr_482'),
    depth: z.enum(['short', 'full'], { error: (issue) => `Invalid depth: ${String(issue.input)}` }).optional(),
  }),
})

describe('tool definitions', () => {
  it('derive the OpenAI tool entry from the zod schema', () => {
    expect(toOpenAiTool(inspect)).toEqual({
      type: 'function',
      function: {
        name: 'inspect_pr_diff',
        description: 'Inspect a pull request diff.',
        parameters: {
          type: 'object',
          properties: {
            pr_id: { type: 'string', description: 'Pull request id such as pr_482' },
            depth: { type: 'string', enum: ['short', 'full'] },
          },
          required: ['pr_id'],
          additionalProperties: false,
        },
      },
    })
  })

  it('parse objects and JSON strings', () => {
    expect(parseToolArguments(inspect, { pr_id: 'pr_1' })).toEqual({ success: true, data: { pr_id: 'pr_1' } })
    expect(parseToolArguments(inspect, '{"pr_id":"pr_2","depth":"full"}')).toEqual({
      success: true,
      data: { pr_id: 'pr_2', depth: 'full' },
    })
  })

  it('turn bad arguments into coded errors with paths, never exceptions', () => {
    const wrongType = parseToolArguments(inspect, { pr_id: 7, depth: 'deep', extra: true })
    expect(wrongType.success).toBe(false)
    if (wrongType.success) return
    expect(wrongType.error.code).toBe('invalid_arguments')
    expect(wrongType.error.issues?.map((issue) => [issue.code, issue.path])).toEqual([
      ['invalid_type', 'pr_id'],
      ['invalid_value', 'depth'],
      ['unrecognized_keys', ''],
    ])
    expect(wrongType.error.message).toContain('Invalid depth: deep')
    const badJson = parseToolArguments(inspect, '{pr_id:')
    expect(badJson).toMatchObject({ success: false, error: { code: 'invalid_arguments' } })
    expect(parseToolArguments(inspect, null)).toMatchObject({ success: false, error: { code: 'invalid_arguments' } })
    expect(parseToolArguments(inspect, undefined)).toMatchObject({ success: false })
  })
})
