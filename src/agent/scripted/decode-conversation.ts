/**
 * @module agent/scripted: what a scripted model reads from a request, whatever the wire: the first user
 * message (which identifies the episode), then per assistant turn the calls it made and the tool results
 * that came back. Sources: native chat messages, plain chat in a text format (json-tool-calls), or a raw
 * ChatML prompt rendered by a Qwen template.
 */
import type { ChatFormat } from '../../chat/chat-format.js'
import type { ChatTool, ParsedToolCall } from '../../chat/chat-message.js'
import { decodeArguments } from '../../chat/template-renderer.js'
import type { JsonObject } from '../../core/json/json-value.js'

export interface DecodedTurn {
  calls: ParsedToolCall[]
  results: string[]
}

export interface DecodedConversation {
  firstUser: string | null
  turns: DecodedTurn[]
  /** The generation prompt opened a think block (qwen3.5 think) or closed an empty one (thinking off). */
  openThink: boolean
  thinkingDisabled: boolean
}

const toolResponsePattern = /<tool_response>\n([\s\S]*?)\n<\/tool_response>/g
const jsonResultPrefix = '[TOOL RESULT '

/** Tool results carried by a user message, or null when it is a real user message. */
function resultsInUserText(text: string, format: ChatFormat | null): string[] | null {
  if (format?.id === 'json-tool-calls') {
    if (!text.startsWith(jsonResultPrefix)) return null
    return text
      .split(`\n\n${jsonResultPrefix}`)
      .map((part, index) => (index === 0 ? part.slice(jsonResultPrefix.length) : part))
      .map((part) => part.slice(part.indexOf(']\n') + 2))
  }
  const trimmed = text.trim()
  if (!(trimmed.startsWith('<tool_response>') && trimmed.endsWith('</tool_response>'))) return null
  return [...trimmed.matchAll(toolResponsePattern)].map((match) => match[1] as string)
}

function wireCalls(message: Record<string, unknown>): ParsedToolCall[] {
  const calls = Array.isArray(message.tool_calls)
    ? (message.tool_calls as { function?: { name?: unknown; arguments?: unknown } }[])
    : []
  return calls.map((call) => ({
    name: String(call.function?.name ?? ''),
    arguments: decodeArguments(call.function?.arguments ?? '{}') as JsonObject | string,
  }))
}

/** Chat messages as a client sends them: native `tool_calls` (format null) or text in a chat format. */
export function decodeChatMessages(options: {
  messages: readonly Record<string, unknown>[]
  format: ChatFormat | null
  tools: readonly ChatTool[]
}): DecodedConversation {
  const decoded: DecodedConversation = { firstUser: null, turns: [], openThink: false, thinkingDisabled: false }
  for (const message of options.messages) {
    const content = typeof message.content === 'string' ? message.content : ''
    if (message.role === 'assistant') {
      const calls =
        options.format === null ? wireCalls(message) : options.format.parse(content, { tools: options.tools }).toolCalls
      decoded.turns.push({ calls, results: [] })
    } else if (message.role === 'tool') {
      decoded.turns.at(-1)?.results.push(content)
    } else if (message.role === 'user') {
      const results = decoded.firstUser === null ? null : resultsInUserText(content, options.format)
      if (results) decoded.turns.at(-1)?.results.push(...results)
      else if (decoded.firstUser === null) decoded.firstUser = content.trim()
    }
  }
  return decoded
}

const blockPattern = /<\|im_start\|>(\w+)\n([\s\S]*?)<\|im_end\|>\n/g

/** A prompt rendered by a ChatML (Qwen) template, ending in the assistant generation prompt. */
export function decodeChatMlPrompt(options: {
  prompt: string
  format: ChatFormat
  tools: readonly ChatTool[]
}): DecodedConversation {
  const decoded: DecodedConversation = { firstUser: null, turns: [], openThink: false, thinkingDisabled: false }
  let consumed = 0
  for (const match of options.prompt.matchAll(blockPattern)) {
    consumed = (match.index as number) + match[0].length
    const role = match[1] as string
    const body = match[2] as string
    if (role === 'assistant') {
      decoded.turns.push({ calls: options.format.parse(body, { tools: options.tools }).toolCalls, results: [] })
    } else if (role === 'user') {
      const results = decoded.firstUser === null ? null : resultsInUserText(body, options.format)
      if (results) decoded.turns.at(-1)?.results.push(...results)
      else if (decoded.firstUser === null) decoded.firstUser = body.trim()
    }
  }
  const generation = options.prompt.slice(consumed)
  decoded.openThink = generation === '<|im_start|>assistant\n<think>\n'
  decoded.thinkingDisabled = generation === '<|im_start|>assistant\n<think>\n\n</think>\n\n'
  return decoded
}
