/**
 * @module eval/gate: tool schemas as a VeRL rollout shows them to the model. VeRL validates each tool's
 * schema into its pydantic `OpenAIFunctionToolSchema` and renders `model_dump(exclude_unset=True,
 * exclude_none=True)`: per property only `type`, `description` and `enum` survive (no `items`, bounds,
 * defaults or `additionalProperties`), parameters keep `type`, `properties` and `required`. A gate or an
 * SFT release that means to show the model the RL prompt must render these, not the full schemas.
 */
import type { ChatTool } from '../../chat/chat-message.js'

type JsonRecord = Record<string, unknown>

const isRecord = (value: unknown): value is JsonRecord => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Problems that would make VeRL's pydantic validation of a tool schema fail (empty when it loads). */
export function verlToolSchemaIssues(tool: ChatTool): string[] {
  const issues: string[] = []
  const name = tool.function?.name ?? '(unnamed)'
  if (tool.type !== 'function') issues.push(`${name}: type must be "function"`)
  if (typeof tool.function?.description !== 'string') issues.push(`${name}: function.description must be a string`)
  const parameters = tool.function?.parameters as unknown
  if (parameters === undefined) return issues
  if (!isRecord(parameters) || typeof parameters.type !== 'string' || !isRecord(parameters.properties)) {
    issues.push(`${name}: parameters need a string type and a properties object`)
    return issues
  }
  for (const [key, property] of Object.entries(parameters.properties)) {
    const type = isRecord(property) ? property.type : undefined
    const typed = typeof type === 'string' || (Array.isArray(type) && type.every((item) => typeof item === 'string'))
    if (!typed) issues.push(`${name}.${key}: every property needs a type (a string or a list of strings)`)
  }
  return issues
}

function property(value: JsonRecord): JsonRecord {
  const kept: JsonRecord = { type: value.type }
  if (typeof value.description === 'string') kept.description = value.description
  if (Array.isArray(value.enum)) kept.enum = value.enum
  return kept
}

/** One tool as VeRL dumps it for the chat template. */
export function verlVisibleTool(tool: ChatTool): ChatTool {
  const parameters = tool.function.parameters as JsonRecord | undefined
  const visible: JsonRecord = { name: tool.function.name, description: tool.function.description }
  if (isRecord(parameters)) {
    const properties = isRecord(parameters.properties) ? parameters.properties : {}
    visible.parameters = {
      type: parameters.type,
      properties: Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, property(value as JsonRecord)])),
      ...(Array.isArray(parameters.required) ? { required: parameters.required } : {}),
    }
  }
  return { type: 'function', function: visible } as unknown as ChatTool
}

export function verlVisibleTools(tools: readonly ChatTool[]): ChatTool[] {
  return tools.map(verlVisibleTool)
}
