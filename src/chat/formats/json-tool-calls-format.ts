/**
 * @module chat/formats: `json-tool-calls`, the original driver's strict prompt: tools and a format
 * instruction in the prompt, replies exactly `{"tool_calls": [{"name": …, "arguments": {…}}]}`, a
 * documented repair step (json-tool-calls-parser.ts). No `tools` go to the endpoint: on the wire the
 * messages of `toJsonToolCallsMessages` are sent as plain chat, and `render` writes them through the
 * Qwen3 template (for raw completion and token counts).
 */
import { pythonDumpsUnicode } from '../../core/python/python-json.js'
import type { ChatFormat, FormatAssistantOptions, RenderOptions } from '../chat-format.js'
import type { AssistantMessage, ChatMessage, ChatTool } from '../chat-message.js'
import { decodeArguments } from '../template-renderer.js'
import { parseJsonToolCalls } from './json-tool-calls-parser.js'
import { formatQwen3Assistant, qwen3Format } from './qwen3-format.js'

const defaultInstruction = 'You are an agent that solves the task by calling the available tools.'

const jsonFormatInstruction = [
  'Reply with one JSON object and nothing else: no explanation, no code fence.',
  'It must have exactly this shape:',
  '{"tool_calls": [{"name": "<tool name>", "arguments": {"<argument>": <value>}}]}',
  'Put exactly one call in "tool_calls"; use only the tools listed above, with arguments of the types their parameters declare.',
  'If no tool call is needed, reply {"tool_calls": []}.',
].join('\n')

function systemPrompt(instruction: string, tools: readonly ChatTool[]): string {
  const listed = tools.map((tool) => ({
    name: tool.function.name,
    description: tool.function.description ?? '',
    parameters: tool.function.parameters ?? { type: 'object', properties: {} },
  }))
  return [
    '[BEGIN OF TASK INSTRUCTION]',
    instruction,
    '[END OF TASK INSTRUCTION]',
    '',
    '[BEGIN OF AVAILABLE TOOLS]',
    pythonDumpsUnicode(listed),
    '[END OF AVAILABLE TOOLS]',
    '',
    '[BEGIN OF FORMAT INSTRUCTION]',
    jsonFormatInstruction,
    '[END OF FORMAT INSTRUCTION]',
  ].join('\n')
}

/** The JSON text of an assistant message's calls, as the format asks a model to write it. */
function jsonToolCallsText(message: AssistantMessage): string {
  const calls = (message.tool_calls ?? []).map((call) => ({
    name: call.function.name,
    arguments: decodeArguments(call.function.arguments),
  }))
  return pythonDumpsUnicode({ tool_calls: calls })
}

/** Our messages as the plain chat the format sends: system prompt with tools, calls as JSON, results as user turns. */
export function toJsonToolCallsMessages(
  messages: readonly ChatMessage[],
  tools: readonly ChatTool[] | null | undefined,
): ChatMessage[] {
  const first = messages[0]
  const instruction = first?.role === 'system' ? first.content : defaultInstruction
  const output: ChatMessage[] = [{ role: 'system', content: systemPrompt(instruction, tools ?? []) }]
  const names = new Map<string, string>()
  let results: string[] = []
  const flush = () => {
    if (results.length > 0) output.push({ role: 'user', content: results.join('\n\n') })
    results = []
  }
  for (const message of first?.role === 'system' ? messages.slice(1) : messages) {
    if (message.role === 'tool') {
      const name = message.name ?? (message.tool_call_id === undefined ? undefined : names.get(message.tool_call_id)) ?? 'tool'
      results.push(`[TOOL RESULT ${name}]\n${message.content}`)
      continue
    }
    flush()
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) if (call.id !== undefined) names.set(call.id, call.function.name)
      const converted: AssistantMessage = { role: 'assistant', content: jsonToolCallsText(message) }
      if (typeof message.reasoning_content === 'string') converted.reasoning_content = message.reasoning_content
      output.push(converted)
    } else {
      output.push(message)
    }
  }
  flush()
  return output
}

export const jsonToolCallsFormat: ChatFormat = {
  id: 'json-tool-calls',
  stop: qwen3Format.stop,
  render: (options: RenderOptions) =>
    qwen3Format.render({ ...options, messages: toJsonToolCallsMessages(options.messages, options.tools), tools: null }),
  parse: parseJsonToolCalls,
  // The strict format has no place for prose: a reply without calls is `{"tool_calls": []}`.
  formatAssistant: (message: AssistantMessage, options: FormatAssistantOptions = {}) => {
    const content = jsonToolCallsText(message)
    const converted: AssistantMessage = { role: 'assistant', content }
    if (typeof message.reasoning_content === 'string') converted.reasoning_content = message.reasoning_content
    return formatQwen3Assistant(converted, options)
  },
  opensThink: () => false,
}
