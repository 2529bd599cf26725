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

type StreamedCall = { id?: string; type: string; function: { name: string; arguments: string } }

/** What the chunks of one stream add up to so far. */
export interface StreamFold {
  done: boolean
  content: string
  reasoning: string
  text: string
  sawContent: boolean
  finishReason: string | null
  usage: unknown
  firstTokenMs: number | null
  calls: StreamedCall[]
}

export function emptyStreamFold(): StreamFold {
  return {
    done: false,
    content: '',
    reasoning: '',
    text: '',
    sawContent: false,
    finishReason: null,
    usage: undefined,
    firstTokenMs: null,
    calls: [],
  }
}

/** Adds a tool-call delta to the call at its index (a new call without one). */
function foldToolCall(calls: StreamedCall[], part: ToolCallDelta): void {
  const index = part.index ?? calls.length
  calls[index] ??= { type: 'function', function: { name: '', arguments: '' } }
  const call = calls[index]
  if (part.id) call.id = part.id
  if (part.function?.name) call.function.name += part.function.name
  if (part.function?.arguments) call.function.arguments += part.function.arguments
}

type ChunkChoice = NonNullable<Chunk['choices']>[number]

/** Adds a chat delta (content, reasoning, tool calls); `mark` notes the first token. */
function foldDelta(fold: StreamFold, delta: NonNullable<ChunkChoice['delta']>, mark: () => void): void {
  if (typeof delta.content === 'string') {
    fold.sawContent = true
    if (delta.content !== '') mark()
    fold.content += delta.content
  }
  const thinking = delta.reasoning_content ?? delta.reasoning
  if (typeof thinking === 'string' && thinking !== '') {
    mark()
    fold.reasoning += thinking
  }
  for (const part of delta.tool_calls ?? []) {
    mark()
    foldToolCall(fold.calls, part)
  }
}

/**
 * Folds one event's data (`[DONE]` or a JSON chunk) into `fold`; `elapsed` gives the milliseconds since
 * the request, read at the first token. A chunk that is not JSON or reports an error is thrown.
 */
export function foldEvent(fold: StreamFold, data: string, elapsed: () => number): void {
  if (data === '[DONE]') {
    fold.done = true
    return
  }
  const mark = () => {
    fold.firstTokenMs ??= elapsed()
  }
  const chunk = parseChunk(data)
  if (chunk.error !== undefined) {
    throw new EndpointError({
      code: 'endpoint_bad_response',
      message: `The stream reported an error: ${JSON.stringify(chunk.error).slice(0, 200)}`,
      retryable: true,
    })
  }
  if (chunk.usage) fold.usage = chunk.usage
  const choice = chunk.choices?.[0]
  if (!choice) return
  if (choice.finish_reason) fold.finishReason = choice.finish_reason
  if (typeof choice.text === 'string' && choice.text !== '') {
    mark()
    fold.text += choice.text
  }
  if (choice.delta) foldDelta(fold, choice.delta, mark)
}

/** The body a non-streaming call would have returned. */
export function streamBody(fold: StreamFold, kind: 'chat' | 'completion'): Record<string, unknown> {
  const { content, reasoning, calls, finishReason, usage } = fold
  const choice =
    kind === 'completion'
      ? { index: 0, text: fold.text, finish_reason: finishReason }
      : {
          index: 0,
          message: {
            role: 'assistant',
            content: fold.sawContent ? content : null,
            ...(reasoning === '' ? {} : { reasoning_content: reasoning }),
            ...(calls.length === 0 ? {} : { tool_calls: calls.filter(Boolean) }),
          },
          finish_reason: finishReason,
        }
  return { choices: [choice], ...(usage === undefined ? {} : { usage }) }
}

/** Feeds the stream's text to `feed` and returns the decoder's remainder; a stream that breaks off is `endpoint_truncated`. */
async function readStream(stream: ReadableStream<Uint8Array>, feed: (text: string) => void): Promise<string> {
  const decoder = new TextDecoder()
  const reader = stream.getReader()
  try {
    for (;;) {
      const { value, done: ended } = await reader.read()
      if (ended) break
      feed(decoder.decode(value, { stream: true }))
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
  return decoder.decode()
}

export async function readSseStream(options: {
  stream: ReadableStream<Uint8Array>
  kind: 'chat' | 'completion'
  startedAt: number
}): Promise<StreamResult> {
  const fold = emptyStreamFold()
  const elapsed = () => performance.now() - options.startedAt
  // One SSE parser for the project (eventsource-parser); the trailing blank line dispatches an event
  // whose stream ended without one, as the hand-written line splitter before it did.
  const parser = createParser({ onEvent: (event) => foldEvent(fold, event.data.trim(), elapsed) })
  const rest = await readStream(options.stream, (text) => parser.feed(text))
  parser.feed(`${rest}\n\n`)
  if (!fold.done)
    throw new EndpointError({ code: 'endpoint_truncated', message: 'The stream ended before [DONE].', retryable: true })
  return { body: streamBody(fold, options.kind), firstTokenMs: fold.firstTokenMs }
}
