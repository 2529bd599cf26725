/** @module core/tools: tools are zod schemas with a name and a description; everything else derives from them. */
import { z } from 'zod'
import type { EnvError } from '../env/env-error.js'

export interface ToolDefinition<Schema extends z.ZodType = z.ZodType> {
  name: string
  description: string
  /** The single source of truth for the argument type, its validation and its JSON Schema. */
  inputSchema: Schema
}

export function defineTool<Schema extends z.ZodType>(definition: ToolDefinition<Schema>): ToolDefinition<Schema> {
  return definition
}

/** The JSON Schema of a tool's arguments (draft 2020-12 without the `$schema` key, as tool APIs expect). */
export function toolParametersSchema(tool: ToolDefinition): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(tool.inputSchema, { io: 'input' }) as Record<string, unknown>
  return schema
}

/** The OpenAI `tools` entry for a tool. */
export function toOpenAiTool(tool: ToolDefinition): {
  type: 'function'
  function: { name: string; description: string; parameters: Record<string, unknown> }
} {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: toolParametersSchema(tool) },
  }
}

export type ParsedArguments<T> = { success: true; data: T } | { success: false; error: EnvError }

function formatPath(path: readonly PropertyKey[]): string {
  return path.map(String).join('.')
}

/**
 * Validates raw arguments against a tool's schema. Accepts an object or a JSON string holding one
 * (OpenAI sends `arguments` as a string); never throws.
 */
export function parseToolArguments<T>(tool: ToolDefinition<z.ZodType<T>>, raw: unknown): ParsedArguments<T> {
  let value = raw === undefined ? {} : raw
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value)
    } catch {
      return {
        success: false,
        error: { code: 'invalid_arguments', message: `Arguments for ${tool.name} are not valid JSON.` },
      }
    }
  }
  const result = tool.inputSchema.safeParse(value)
  if (result.success) return { success: true, data: result.data }
  const issues = result.error.issues.map((issue) => ({
    code: issue.code,
    path: formatPath(issue.path),
    message: issue.message,
  }))
  const message = issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; ')
  return { success: false, error: { code: 'invalid_arguments', message, issues } }
}
