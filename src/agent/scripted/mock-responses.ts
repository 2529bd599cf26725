/**
 * @module agent/scripted: OpenAI-shaped bodies and server-sent-event chunks for the mock endpoint, as
 * vLLM writes them: `chat.completion` with `tool_calls` (arguments as JSON strings, ids
 * `chatcmpl-tool-<32 hex>`), `text_completion`, and streams ending in `data: [DONE]`.
 */
import { createHash } from 'node:crypto'
import type { ParsedToolCall } from '../../chat/chat-message.js'
import type { JsonValue } from '../../core/json/json-value.js'
import { pythonDumpsUnicode } from '../../core/python/python-json.js'

export interface MockUsage {
  prompt_tokens: number
  completion_tokens: number
  total_tokens: number
}

export interface ChatReplyBody {
  content: string | null
  reasoning: string | null
  calls: readonly ParsedToolCall[]
}

/** A deterministic id: the same conversation gets the same ids. */
function stableId(prefix: string, ...parts: string[]): string {
  return `${prefix}${createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32)}`
}

function wireCalls(calls: readonly ParsedToolCall[], seed: string) {
  return calls.map((call, index) => ({
    id: stableId('chatcmpl-tool-', seed, String(index)),
    type: 'function',
    function: {
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : pythonDumpsUnicode(call.arguments as JsonValue),
    },
  }))
}

export function chatCompletionBody(options: { model: string; seed: string; reply: ChatReplyBody; usage: MockUsage | null }) {
  const message: Record<string, unknown> = { role: 'assistant', content: options.reply.content }
  if (options.reply.reasoning !== null) message.reasoning_content = options.reply.reasoning
  if (options.reply.calls.length > 0) message.tool_calls = wireCalls(options.reply.calls, options.seed)
  return {
    id: stableId('chatcmpl-', options.seed),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: options.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: options.reply.calls.length > 0 ? 'tool_calls' : 'stop' }],
    ...(options.usage ? { usage: options.usage } : {}),
  }
}

export function textCompletionBody(options: { model: string; seed: string; text: string; usage: MockUsage | null }) {
  return {
    id: stableId('cmpl-', options.seed),
    object: 'text_completion',
    created: Math.floor(Date.now() / 1000),
    model: options.model,
    choices: [{ index: 0, text: options.text, logprobs: null, finish_reason: 'stop' }],
    ...(options.usage ? { usage: options.usage } : {}),
  }
}

/** What both streams take besides their reply: ids from `seed`, pieces of `chunkChars`, usage last when asked. */
interface StreamOptions {
  model: string
  seed: string
  usage: MockUsage | null
  chunkChars: number
  includeUsage: boolean
}

function pieces(text: string, size: number): string[] {
  const parts: string[] = []
  const characters = Array.from(text)
  for (let start = 0; start < characters.length; start += size) parts.push(characters.slice(start, start + size).join(''))
  return parts
}

/** The SSE `data:` payloads of a streamed chat completion (without the final `[DONE]`). */
export function chatCompletionChunks(options: StreamOptions & { reply: ChatReplyBody }) {
  const id = stableId('chatcmpl-', options.seed)
  const created = Math.floor(Date.now() / 1000)
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model: options.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  })
  const chunks: object[] = [chunk({ role: 'assistant', content: '' })]
  for (const part of pieces(options.reply.reasoning ?? '', options.chunkChars)) chunks.push(chunk({ reasoning_content: part }))
  for (const part of pieces(options.reply.content ?? '', options.chunkChars)) chunks.push(chunk({ content: part }))
  wireCalls(options.reply.calls, options.seed).forEach((call, index) => {
    chunks.push(
      chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }),
    )
    for (const part of pieces(call.function.arguments, options.chunkChars))
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }))
  })
  chunks.push(chunk({}, options.reply.calls.length > 0 ? 'tool_calls' : 'stop'))
  if (options.includeUsage && options.usage)
    chunks.push({ id, object: 'chat.completion.chunk', created, model: options.model, choices: [], usage: options.usage })
  return chunks
}

/** The SSE `data:` payloads of a streamed text completion. */
export function textCompletionChunks(options: StreamOptions & { text: string }) {
  const id = stableId('cmpl-', options.seed)
  const created = Math.floor(Date.now() / 1000)
  const chunk = (text: string, finish: string | null = null) => ({
    id,
    object: 'text_completion',
    created,
    model: options.model,
    choices: [{ index: 0, text, logprobs: null, finish_reason: finish }],
  })
  const chunks: object[] = pieces(options.text, options.chunkChars).map((part) => chunk(part))
  chunks.push(chunk('', 'stop'))
  if (options.includeUsage && options.usage)
    chunks.push({ id, object: 'text_completion', created, model: options.model, choices: [], usage: options.usage })
  return chunks
}
