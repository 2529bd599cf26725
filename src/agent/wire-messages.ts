/**
 * @module agent: our native messages ⇄ the OpenAI chat wire. On the wire tool-call `arguments` are JSON
 * strings (written like Python's `json.dumps(…, ensure_ascii=False)`, which is what templates that insert
 * string arguments verbatim expect); coming back they are decoded, and a string that is not a JSON object
 * is kept as it is, with an issue, for the env to reject.
 */
import type { ParseIssue } from '../chat/chat-format.js'
import type { AssistantMessage, ChatMessage, ChatTool, ParsedToolCall } from '../chat/chat-message.js'
import { decodeArguments } from '../chat/template-renderer.js'
import type { JsonObject, JsonValue } from '../core/json/json-value.js'
import { pythonDumpsUnicode } from '../core/python/python-json.js'

/**
 * `reasoning: false` drops `reasoning_content` from assistant messages (APIs such as DeepSeek's reject it;
 * vLLM passes it to templates that render the think blocks of the current query's turns).
 */
export function toWireMessages(
  messages: readonly ChatMessage[],
  options: { reasoning?: boolean } = {},
): Record<string, unknown>[] {
  return messages.map((original) => {
    let message = original
    if (options.reasoning === false && message.role === 'assistant' && message.reasoning_content !== undefined) {
      const { reasoning_content: _dropped, ...rest } = message
      message = rest
    }
    if (message.role !== 'assistant' || !message.tool_calls?.length) return { ...message }
    return {
      ...message,
      tool_calls: message.tool_calls.map((call) => ({
        id: call.id,
        type: 'function',
        function: {
          name: call.function.name,
          arguments:
            typeof call.function.arguments === 'string'
              ? call.function.arguments
              : pythonDumpsUnicode(call.function.arguments as JsonValue),
        },
      })),
    }
  })
}

/** Deterministic ids for calls the endpoint gave none: `call_<assistant turn>_<index>`. */
export function toolCallId(turn: number, index: number): string {
  return `call_${turn}_${index}`
}

export function assistantTurnIndex(messages: readonly ChatMessage[]): number {
  return messages.reduce((count, message) => count + (message.role === 'assistant' ? 1 : 0), 0)
}

interface WireToolCall {
  id?: unknown
  function?: { name?: unknown; arguments?: unknown }
}

/** A native `choices[0].message` as our assistant message, calls decoded and checked against the tools. */
export function fromWireMessage(options: { message: Record<string, unknown>; tools: readonly ChatTool[]; turn: number }): {
  message: AssistantMessage
  toolCalls: ParsedToolCall[]
  issues: ParseIssue[]
} {
  const wire = options.message
  const issues: ParseIssue[] = []
  const known = new Set(options.tools.map((tool) => tool.function.name))
  const content = typeof wire.content === 'string' ? wire.content : null
  const reasoning =
    typeof wire.reasoning_content === 'string'
      ? wire.reasoning_content
      : typeof wire.reasoning === 'string'
        ? wire.reasoning
        : null
  const toolCalls: ParsedToolCall[] = []
  const message: AssistantMessage = { role: 'assistant', content }
  if (reasoning !== null) message.reasoning_content = reasoning
  const wireCalls = Array.isArray(wire.tool_calls) ? (wire.tool_calls as WireToolCall[]) : []
  const calls: NonNullable<AssistantMessage['tool_calls']> = []
  wireCalls.forEach((call, index) => {
    const path = `tool_calls.${index}`
    const name = call.function?.name
    if (typeof name !== 'string' || name === '') {
      issues.push({ code: 'missing_name', path: `${path}.function.name`, message: `Tool call ${index} has no function name.` })
      return
    }
    const raw = call.function?.arguments ?? '{}'
    let args: JsonObject | string
    if (typeof raw === 'string') {
      const decoded = decodeArguments(raw.trim() === '' ? '{}' : raw)
      args = decoded as JsonObject | string
      if (typeof decoded === 'string')
        issues.push({
          code: 'invalid_json',
          path: `${path}.function.arguments`,
          message: `Arguments of tool call ${index} are not a JSON object: ${raw.slice(0, 80)}`,
        })
    } else if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
      args = raw as JsonObject
    } else {
      args = JSON.stringify(raw)
      issues.push({
        code: 'invalid_arguments',
        path: `${path}.function.arguments`,
        message: `Arguments of tool call ${index} are not a JSON object.`,
      })
    }
    if (known.size > 0 && !known.has(name))
      issues.push({ code: 'unknown_tool', path: `${path}.function.name`, message: `Unknown tool "${name}".` })
    const id = typeof call.id === 'string' && call.id !== '' ? call.id : toolCallId(options.turn, index)
    calls.push({ id, type: 'function', function: { name, arguments: args } })
    toolCalls.push({ name, arguments: args })
  })
  if (calls.length > 0) message.tool_calls = calls
  if (calls.length === 0 && content?.includes('<tool_call>')) {
    issues.push({
      code: 'stray_tag',
      message:
        'The reply holds <tool_call> text but no tool_calls: is the server started with a tool-call parser (vLLM --enable-auto-tool-choice --tool-call-parser)?',
    })
  }
  return { message, toolCalls, issues }
}
