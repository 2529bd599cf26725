/**
 * @module agent: the messages an episode starts from. As TRL's `environment_factory` does, the reset
 * observation's text is appended to the last message of the row's prompt (no separator), so a model is
 * evaluated on exactly the prompt it was trained on; rows without a prompt get the env description as
 * the system message and the observation as the user message.
 */
import { z } from 'zod'
import { type ChatMessage, type ChatTool, chatMessageSchema } from '../chat/chat-message.js'
import type { EnvSpec } from '../core/env/env-api.js'
import { InvalidInputError } from '../core/errors/invalid-input-error.js'
import { toOpenAiTool } from '../core/tools/define-tool.js'

const promptSchema = z.array(chatMessageSchema).min(1)

export function initialMessages(options: { spec: EnvSpec; prompt?: unknown; resetText: string }): ChatMessage[] {
  if (options.prompt === undefined || options.prompt === null) {
    return [
      { role: 'system', content: options.spec.description },
      { role: 'user', content: options.resetText },
    ]
  }
  const parsed = promptSchema.safeParse(options.prompt)
  if (!parsed.success) {
    throw new InvalidInputError({
      code: 'invalid_prompt',
      message: `The row's prompt is not a list of chat messages: ${parsed.error.issues[0]?.message}`,
      issues: parsed.error.issues.map((issue) => ({
        code: issue.code,
        path: ['prompt', ...issue.path].join('.'),
        message: issue.message,
      })),
    })
  }
  const messages = parsed.data.map((message) => ({ ...message }))
  const last = messages.at(-1) as ChatMessage
  if (last.role !== 'user' && last.role !== 'system') {
    throw new InvalidInputError({
      code: 'invalid_prompt',
      message: `The row's prompt must end with a user or system message, not ${last.role}.`,
      issues: [{ code: 'invalid_prompt', path: `prompt.${messages.length - 1}.role`, message: 'Expected user or system.' }],
    })
  }
  last.content = `${last.content}${options.resetText}`
  return messages
}

const toolsBySpec = new WeakMap<EnvSpec, ChatTool[]>()

/** The env's tools in OpenAI shape (built once per spec: JSON Schema generation is not free). */
export function envTools(spec: EnvSpec): ChatTool[] {
  let tools = toolsBySpec.get(spec)
  if (!tools) {
    tools = spec.tools.map((tool) => toOpenAiTool(tool))
    toolsBySpec.set(spec, tools)
  }
  return tools
}
