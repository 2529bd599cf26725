import { describe, expect, it } from 'vitest'
import type { ChatTool } from '../../chat/chat-message.js'
import { toOpenAiTool } from '../../core/tools/define-tool.js'
import { categoryTools } from '../../envs/grading/tools/category-tools.js'
import { verlToolSchemaIssues, verlVisibleTool } from './verl-visible-tools.js'

describe('tool schemas as VeRL shows them', () => {
  it('keeps type, description and enum per property, and type, properties, required per function', () => {
    const search = toOpenAiTool(categoryTools[0] as never) as ChatTool
    expect(verlVisibleTool(search)).toEqual({
      type: 'function',
      function: {
        name: 'search_categories',
        description: search.function.description,
        parameters: {
          type: 'object',
          properties: {
            field_name: { type: 'string', description: 'The field name exactly as given in the field metadata.' },
            table_name: { type: 'string', description: 'The table name exactly as given in the field metadata.' },
            top_k: { type: 'integer', description: 'Number of candidates; fixed at 5.' },
            scope: {
              type: 'string',
              description: 'Optional scope_key from browse_categories; restricts the search to that top-level group.',
            },
          },
          required: ['field_name', 'table_name'],
        },
      },
    })
    const details = verlVisibleTool(toOpenAiTool(categoryTools[1] as never) as ChatTool)
    expect(JSON.stringify(details)).not.toMatch(/items|minItems|maxItems|additionalProperties|default/)
  })

  it('flags schemas VeRL would refuse to load', () => {
    for (const tool of categoryTools) expect(verlToolSchemaIssues(toOpenAiTool(tool) as ChatTool)).toEqual([])
    const untyped = {
      type: 'function',
      function: { name: 'x', description: 'd', parameters: { type: 'object', properties: { a: { anyOf: [] } } } },
    }
    expect(verlToolSchemaIssues(untyped as unknown as ChatTool)).toEqual([
      'x.a: every property needs a type (a string or a list of strings)',
    ])
  })
})
