/**
 * @module agent/scripted: how the mock endpoint answers one model request (`/v1/chat/completions`,
 * `/v1/completions`), in steps: read the JSON body, draw the request's fault and answer it when it
 * replaces the answer, ask the scripted model, then send the reply whole or streamed (cut short on a
 * `truncated` fault).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ChatFormat } from '../../chat/chat-format.js'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'
import type { FaultKind } from './fault-plan.js'
import { readBody, sendError, sendJson } from './mock-http.js'
import type { MockOpenAiServerOptions, MockStats } from './mock-openai-server.js'
import { type MockReply, type ReplyRequest, replyFor } from './mock-reply.js'
import { chatCompletionBody, chatCompletionChunks, textCompletionBody, textCompletionChunks } from './mock-responses.js'
import { ScriptedConversationError } from './scripted-policy-model.js'

export type ModelRoute = 'chat' | 'completion'

/** What every model request reads: the server's options, format and name, its stats, and the held responses. */
export interface MockAnswerContext {
  options: MockOpenAiServerOptions
  format: ChatFormat
  modelName: string
  stats: MockStats
  /** Responses a `timeout` fault never answers (destroyed on close). */
  held: Set<ServerResponse>
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The body as a JSON object, or null once a 413 or 400 has been sent. */
async function readJsonBody(context: MockAnswerContext, request: IncomingMessage, response: ServerResponse) {
  const text = await readBody(request, context.options.maxBodyBytes ?? 16 * 1024 * 1024)
  if (text === null) {
    sendError(response, 413, 'body_too_large', 'The request body is too large.')
    return null
  }
  try {
    return JSON.parse(text) as Record<string, unknown>
  } catch {
    sendError(response, 400, 'invalid_json', 'The request body is not JSON.')
    return null
  }
}

/** Answers a fault that replaces the answer (reset, timeout, an error status, a broken body); false for the others. */
function answerFault(
  context: MockAnswerContext,
  fault: FaultKind | null,
  request: IncomingMessage,
  response: ServerResponse,
): boolean {
  if (fault === 'reset') request.socket.destroy()
  else if (fault === 'timeout') context.held.add(response)
  else if (fault === 'rate_limit') sendError(response, 429, 'rate_limited', 'Too many requests.', { 'retry-after': '0' })
  else if (fault === 'server_error') sendError(response, 500, 'internal_error', 'The engine crashed.')
  else if (fault === 'unavailable') {
    response.writeHead(503, { 'content-type': 'text/html' })
    response.end('<html><body>503 Service Unavailable</body></html>')
  } else if (fault === 'garbage') {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end('<html>upstream</html>{"choices": [')
  } else if (fault === 'empty_choices') sendJson(response, 200, { id: 'x', object: 'chat.completion', choices: [] })
  else return false
  return true
}

/** The scripted model's reply, or null once a refused conversation has been answered 400. */
function scriptedReply(
  context: MockAnswerContext,
  request: { route: ModelRoute; body: Record<string, unknown> },
  response: ServerResponse,
): MockReply | null {
  const { options } = context
  try {
    return replyFor({
      ...request,
      format: context.format,
      model: options.model,
      ...(options.tokenCounter ? { tokenCounter: options.tokenCounter } : {}),
    } satisfies ReplyRequest)
  } catch (error) {
    context.stats.rejected++
    if (ScriptedConversationError.isInstance(error) || ReleaseOpsError.isInstance(error)) {
      sendError(response, 400, (error as ReleaseOpsError).code, (error as Error).message)
      return null
    }
    throw error
  }
}

/** A well-formed reply whose text is nonsense (the `garbage_content` fault). */
export function garbledReply(reply: MockReply): MockReply {
  return {
    ...reply,
    chat: { content: 'Bananas are berries ~~ }{', reasoning: null, calls: [] },
    text: 'Bananas are berries ~~ }{',
  }
}

interface SendReply {
  route: ModelRoute
  body: Record<string, unknown>
  reply: MockReply
  truncated: boolean
}

/** The whole JSON body; on a `truncated` fault, half of it, then the connection drops. */
function sendWhole(context: MockAnswerContext, send: SendReply, request: IncomingMessage, response: ServerResponse) {
  const { reply } = send
  const shared = { model: context.modelName, seed: reply.seed, usage: reply.usage }
  const payload =
    send.route === 'chat'
      ? chatCompletionBody({ ...shared, reply: reply.chat })
      : textCompletionBody({ ...shared, text: reply.text })
  if (!send.truncated) return sendJson(response, 200, payload)
  const full = JSON.stringify(payload)
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(full) })
  response.write(full.slice(0, Math.floor(full.length / 2)))
  setImmediate(() => request.socket.destroy())
}

/** The reply as server-sent events ending in `[DONE]`; on a `truncated` fault, the first half, then the connection drops. */
function sendStream(context: MockAnswerContext, send: SendReply, request: IncomingMessage, response: ServerResponse): void {
  const { reply, body } = send
  const includeUsage = (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true
  const chunkChars = context.options.streamChunkChars ?? 24
  const shared = { model: context.modelName, seed: reply.seed, usage: reply.usage, chunkChars, includeUsage }
  const chunks =
    send.route === 'chat'
      ? chatCompletionChunks({ ...shared, reply: reply.chat })
      : textCompletionChunks({ ...shared, text: reply.text })
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
  const sent = send.truncated ? chunks.slice(0, Math.max(1, Math.floor(chunks.length / 2))) : chunks
  for (const chunk of sent) response.write(`data: ${JSON.stringify(chunk)}\n\n`)
  if (send.truncated) return void setImmediate(() => request.socket.destroy())
  response.end('data: [DONE]\n\n')
}

export async function answerModelRequest(
  context: MockAnswerContext,
  request: IncomingMessage,
  response: ServerResponse,
  route: ModelRoute,
): Promise<void> {
  const body = await readJsonBody(context, request, response)
  if (body === null) return
  const { stats, options } = context
  const number = ++stats.modelRequests
  const fault = options.faults?.({ number, route }) ?? null
  if (fault) stats.faults[fault] = (stats.faults[fault] ?? 0) + 1
  if (answerFault(context, fault, request, response)) return
  let reply = scriptedReply(context, { route, body }, response)
  if (reply === null) return
  if (fault === 'garbage_content') reply = garbledReply(reply)
  if (options.latencyMs) await delay(options.latencyMs)
  const send = { route, body, reply, truncated: fault === 'truncated' }
  if (body.stream === true) sendStream(context, send, request, response)
  else sendWhole(context, send, request, response)
}
