/**
 * @module agent: reads an OpenAI-style server-sent-event stream (`data: {chunk}` … `data: [DONE]`) and
 * folds the chunks into the body a non-streaming call would have returned, so one response path serves
 * both. A stream that stops before `[DONE]` is truncated: an infrastructure error, retried.
 */
import { createParser } from 'eventsource-parser'
import { EndpointError, isEndpointError } from './endpoint-error.js'

interface ToolCallDelta {
  index?: number
  id?: string
  type?: string
  function?: { name?: string; arguments?: string }
}

interface Chunk {
  error?: unknown
  choices?: {
    index?: number
    text?: string
    delta?: {
      role?: string
      content?: string | null
      reasoning_content?: string | null
      reasoning?: string | null
      tool_calls?: ToolCallDelta[]
    }
    finish_reason?: string | null
  }[]
  usage?: unknown
}

export interface StreamResult {
  body: Record<string, unknown>
  /** Milliseconds from the request to the first content, reasoning or tool-call delta. */
  firstTokenMs: number | null
}

function parseChunk(data: string): Chunk {
  try {
    return JSON.parse(data) as Chunk
  } catch (error) {
    throw new EndpointError({
      code: 'endpoint_bad_response',
      message: `A stream chunk is not JSON: ${data.slice(0, 120)}`,
      retryable: true,
      cause: error,
    })
  }
}

export async function readSseStream(options: {
  stream: ReadableStream<Uint8Array>
  kind: 'chat' | 'completion'
  startedAt: number
}): Promise<StreamResult> {
  let done = false
  let content = ''
  let reasoning = ''
  let text = ''
  let sawContent = false
  let finishReason: string | null = null
  let usage: unknown
  let firstTokenMs: number | null = null
  const calls: { id?: string; type: string; function: { name: string; arguments: string } }[] = []
  const mark = () => {
    firstTokenMs ??= performance.now() - options.startedAt
  }
  const handle = (data: string) => {
    if (data === '[DONE]') {
      done = true
      return
    }
    const chunk = parseChunk(data)
    if (chunk.error !== undefined) {
      throw new EndpointError({
        code: 'endpoint_bad_response',
        message: `The stream reported an error: ${JSON.stringify(chunk.error).slice(0, 200)}`,
        retryable: true,
      })
    }
    if (chunk.usage) usage = chunk.usage
    const choice = chunk.choices?.[0]
    if (!choice) return
    if (choice.finish_reason) finishReason = choice.finish_reason
    if (typeof choice.text === 'string' && choice.text !== '') {
      mark()
      text += choice.text
    }
    const delta = choice.delta
    if (!delta) return
    if (typeof delta.content === 'string') {
      sawContent = true
      if (delta.content !== '') mark()
      content += delta.content
    }
    const thinking = delta.reasoning_content ?? delta.reasoning
    if (typeof thinking === 'string' && thinking !== '') {
      mark()
      reasoning += thinking
    }
    for (const part of delta.tool_calls ?? []) {
      mark()
      const index = part.index ?? calls.length
      calls[index] ??= { type: 'function', function: { name: '', arguments: '' } }
      const call = calls[index]
      if (part.id) call.id = part.id
      if (part.function?.name) call.function.name += part.function.name
      if (part.function?.arguments) call.function.arguments += part.function.arguments
    }
  }
  // One SSE parser for the project (eventsource-parser); the trailing blank line dispatches an event
  // whose stream ended without one, as the hand-written line splitter before it did.
  const parser = createParser({ onEvent: (event) => handle(event.data.trim()) })
  const decoder = new TextDecoder()
  const reader = options.stream.getReader()
  try {
    for (;;) {
      const { value, done: ended } = await reader.read()
      if (ended) break
      parser.feed(decoder.decode(value, { stream: true }))
    }
  } catch (error) {
    if (isEndpointError(error)) throw error
    throw new EndpointError({
      code: 'endpoint_truncated',
      message: `The stream broke off: ${(error as Error).message}`,
      retryable: true,
      cause: error,
    })
  }
  parser.feed(`${decoder.decode()}\n\n`)
  if (!done) throw new EndpointError({ code: 'endpoint_truncated', message: 'The stream ended before [DONE].', retryable: true })
  const choice =
    options.kind === 'completion'
      ? { index: 0, text, finish_reason: finishReason }
      : {
          index: 0,
          message: {
            role: 'assistant',
            content: sawContent ? content : null,
            ...(reasoning === '' ? {} : { reasoning_content: reasoning }),
            ...(calls.length === 0 ? {} : { tool_calls: calls.filter(Boolean) }),
          },
          finish_reason: finishReason,
        }
  return { body: { choices: [choice], ...(usage === undefined ? {} : { usage }) }, firstTokenMs }
}
