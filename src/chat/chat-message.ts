/**
 * @module chat: OpenAI-style chat messages and tools. The zod schemas are the single source of truth:
 * types, validation of `chat render` input and of what endpoints send back all derive from them.
 *
 * In our own messages (trajectories, the agent loop) tool-call `arguments` are JSON objects; the
 * OpenAI wire sends them as JSON strings, and a string that does not decode stays a string.
 */
import { z } from 'zod'
import type { JsonObject } from '../core/json/json-value.js'

const jsonObjectSchema = z.record(z.string(), z.unknown()) as unknown as z.ZodType<JsonObject>

const chatToolCallSchema = z.object({
  id: z.string().optional(),
  type: z.literal('function').optional(),
  function: z.object({
    name: z.string(),
    arguments: z.union([z.string(), jsonObjectSchema]),
  }),
})
export type ChatToolCall = z.infer<typeof chatToolCallSchema>

const systemMessageSchema = z.object({ role: z.literal('system'), content: z.string() })
const userMessageSchema = z.object({ role: z.literal('user'), content: z.string() })
const assistantMessageSchema = z.object({
  role: z.literal('assistant'),
  content: z.string().nullable().optional(),
  reasoning_content: z.string().nullable().optional(),
  tool_calls: z.array(chatToolCallSchema).optional(),
})
const toolMessageSchema = z.object({
  role: z.literal('tool'),
  content: z.string(),
  tool_call_id: z.string().optional(),
  name: z.string().optional(),
})

export const chatMessageSchema = z.discriminatedUnion('role', [
  systemMessageSchema,
  userMessageSchema,
  assistantMessageSchema,
  toolMessageSchema,
])
export type SystemMessage = z.infer<typeof systemMessageSchema>
export type UserMessage = z.infer<typeof userMessageSchema>
export type AssistantMessage = z.infer<typeof assistantMessageSchema>
export type ToolMessage = z.infer<typeof toolMessageSchema>
export type ChatMessage = z.infer<typeof chatMessageSchema>

/** The OpenAI `tools` entry. `parameters` is a JSON Schema object. */
export const chatToolSchema = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string(),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().optional(),
  }),
})
export type ChatTool = z.infer<typeof chatToolSchema>

/** What `releaseops chat render` reads on stdin. */
export const renderRequestSchema = z.object({
  messages: z.array(chatMessageSchema).min(1),
  tools: z.array(chatToolSchema).nullable().optional(),
  add_generation_prompt: z.boolean().optional(),
  enable_thinking: z.boolean().optional(),
})
export type RenderRequest = z.infer<typeof renderRequestSchema>

/** A tool call as the agent executes it: arguments decoded when they could be. */
export interface ParsedToolCall {
  name: string
  /** An object when the model's arguments decoded to one; otherwise the raw text, which the env rejects. */
  arguments: JsonObject | string
}

/** The one id of the native trajectory format (grading-release spec: one constant everywhere). */
export const nativeTrajectoryFormat = 'qwen3.5-native-tools-v2'

/** Builds an assistant message carrying `calls`, with ids the caller chooses. */
export function assistantWithCalls(options: {
  content?: string | null
  reasoning?: string | null
  calls: readonly ParsedToolCall[]
  ids: readonly string[]
}): AssistantMessage {
  const message: AssistantMessage = { role: 'assistant', content: options.content ?? '' }
  if (options.reasoning !== undefined && options.reasoning !== null) message.reasoning_content = options.reasoning
  if (options.calls.length > 0) {
    message.tool_calls = options.calls.map((call, index) => ({
      id: options.ids[index] ?? `call_${index}`,
      type: 'function' as const,
      function: { name: call.name, arguments: call.arguments },
    }))
  }
  return message
}
