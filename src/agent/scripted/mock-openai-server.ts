/**
 * @module agent/scripted: a real OpenAI-compatible HTTP server on loopback, backed by a scripted model.
 * Routes: `GET /v1/models`, `POST /v1/chat/completions` (with `tools`: native `tool_calls`; without: text
 * in the server's chat format), `POST /v1/completions` (a raw ChatML prompt; text in the format),
 * streaming or not, `GET /health`. Faults are injected per request (fault-plan.ts) for tests and demos.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ChatFormatId } from '../../chat/format-registry.js'
import { chatFormat } from '../../chat/format-registry.js'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'
import type { TokenCounter } from '../token-counter.js'
import type { FaultKind, FaultPlan } from './fault-plan.js'
import { type ReplyRequest, replyFor } from './mock-reply.js'
import {
  chatCompletionBody,
  chatCompletionChunks,
  type MockUsage,
  textCompletionBody,
  textCompletionChunks,
} from './mock-responses.js'
import { ScriptedConversationError, type ScriptedPolicyModel } from './scripted-policy-model.js'

export interface MockOpenAiServerOptions {
  model: ScriptedPolicyModel
  /** The text format spoken on `/completions` and on chat requests without tools. */
  format: ChatFormatId
  modelName?: string
  /** The checkpoint path `GET /v1/models` names as `root`, as vLLM does. */
  modelRoot?: string
  /** The base checkpoint `GET /v1/models` names as `parent` (vLLM does for a LoRA module). */
  modelParent?: string
  host?: string
  port?: number
  /** When set, `/v1/*` requires `Authorization: Bearer <apiKey>`. */
  apiKey?: string
  faults?: FaultPlan
  /** Added before every model answer. */
  latencyMs?: number
  /** Reports usage counted with this tokenizer (none reported without it). */
  tokenCounter?: TokenCounter
  streamChunkChars?: number
  maxBodyBytes?: number
}

export interface MockStats {
  requests: number
  modelRequests: number
  byRoute: Record<string, number>
  faults: Partial<Record<FaultKind, number>>
  rejected: number
  inFlight: number
  peakInFlight: number
}

export interface MockOpenAiServer {
  /** Base URL for clients, ending in `/v1`. */
  url: string
  modelName: string
  stats: MockStats
  close(): Promise<void>
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers })
  response.end(text)
}

function sendError(
  response: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(
    response,
    status,
    { error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', code } },
    headers,
  )
}

async function readBody(request: IncomingMessage, limit: number): Promise<string | null> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request) {
    size += (chunk as Buffer).length
    if (size > limit) return null
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export async function startMockOpenAiServer(options: MockOpenAiServerOptions): Promise<MockOpenAiServer> {
  const format = chatFormat(options.format)
  const modelName = options.modelName ?? 'scripted'
  const stats: MockStats = { requests: 0, modelRequests: 0, byRoute: {}, faults: {}, rejected: 0, inFlight: 0, peakInFlight: 0 }
  const held = new Set<ServerResponse>()

  const answer = async (request: IncomingMessage, response: ServerResponse, route: 'chat' | 'completion') => {
    const text = await readBody(request, options.maxBodyBytes ?? 16 * 1024 * 1024)
    if (text === null) return sendError(response, 413, 'body_too_large', 'The request body is too large.')
    let body: Record<string, unknown>
    try {
      body = JSON.parse(text) as Record<string, unknown>
    } catch {
      return sendError(response, 400, 'invalid_json', 'The request body is not JSON.')
    }
    const number = ++stats.modelRequests
    const fault = options.faults?.({ number, route }) ?? null
    if (fault) stats.faults[fault] = (stats.faults[fault] ?? 0) + 1
    if (fault === 'reset') return void request.socket.destroy()
    if (fault === 'timeout') return void held.add(response)
    if (fault === 'rate_limit') return sendError(response, 429, 'rate_limited', 'Too many requests.', { 'retry-after': '0' })
    if (fault === 'server_error') return sendError(response, 500, 'internal_error', 'The engine crashed.')
    if (fault === 'unavailable') {
      response.writeHead(503, { 'content-type': 'text/html' })
      return void response.end('<html><body>503 Service Unavailable</body></html>')
    }
    if (fault === 'garbage') {
      response.writeHead(200, { 'content-type': 'application/json' })
      return void response.end('<html>upstream</html>{"choices": [')
    }
    if (fault === 'empty_choices') return sendJson(response, 200, { id: 'x', object: 'chat.completion', choices: [] })
    let reply: Awaited<ReturnType<typeof replyFor>>
    try {
      reply = replyFor({
        route,
        body,
        format,
        model: options.model,
        ...(options.tokenCounter ? { tokenCounter: options.tokenCounter } : {}),
      } satisfies ReplyRequest)
    } catch (error) {
      stats.rejected++
      if (ScriptedConversationError.isInstance(error) || ReleaseOpsError.isInstance(error)) {
        return sendError(response, 400, (error as ReleaseOpsError).code, (error as Error).message)
      }
      throw error
    }
    if (fault === 'garbage_content')
      reply = {
        ...reply,
        chat: { content: 'Bananas are berries ~~ }{', reasoning: null, calls: [] },
        text: 'Bananas are berries ~~ }{',
      }
    if (options.latencyMs) await delay(options.latencyMs)
    const stream = body.stream === true
    const includeUsage = (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true
    const usage: MockUsage | null = reply.usage
    const chunkChars = options.streamChunkChars ?? 24
    if (!stream) {
      const payload =
        route === 'chat'
          ? chatCompletionBody({ model: modelName, seed: reply.seed, reply: reply.chat, usage })
          : textCompletionBody({ model: modelName, seed: reply.seed, text: reply.text, usage })
      if (fault !== 'truncated') return sendJson(response, 200, payload)
      const full = JSON.stringify(payload)
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(full) })
      response.write(full.slice(0, Math.floor(full.length / 2)))
      return void setImmediate(() => request.socket.destroy())
    }
    const chunks =
      route === 'chat'
        ? chatCompletionChunks({ model: modelName, seed: reply.seed, reply: reply.chat, usage, chunkChars, includeUsage })
        : textCompletionChunks({ model: modelName, seed: reply.seed, text: reply.text, usage, chunkChars, includeUsage })
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
    const sent = fault === 'truncated' ? chunks.slice(0, Math.max(1, Math.floor(chunks.length / 2))) : chunks
    for (const chunk of sent) response.write(`data: ${JSON.stringify(chunk)}\n\n`)
    if (fault === 'truncated') return void setImmediate(() => request.socket.destroy())
    response.end('data: [DONE]\n\n')
  }

  const server: Server = createServer((request, response) => {
    stats.requests++
    const path = (request.url ?? '/').split('?')[0] as string
    const key = `${request.method} ${path}`
    stats.byRoute[key] = (stats.byRoute[key] ?? 0) + 1
    if (key === 'GET /health') return sendJson(response, 200, { status: 'ok' })
    if (path.startsWith('/v1/') && options.apiKey && request.headers.authorization !== `Bearer ${options.apiKey}`) {
      return sendError(response, 401, 'invalid_api_key', 'Missing or wrong API key.')
    }
    if (key === 'GET /v1/models') {
      return sendJson(response, 200, {
        object: 'list',
        data: [
          {
            id: modelName,
            object: 'model',
            created: 0,
            owned_by: 'releaseops',
            ...(options.modelRoot ? { root: options.modelRoot } : {}),
            ...(options.modelParent ? { parent: options.modelParent } : {}),
          },
        ],
      })
    }
    const route = key === 'POST /v1/chat/completions' ? 'chat' : key === 'POST /v1/completions' ? 'completion' : null
    if (!route) return sendError(response, 404, 'not_found', `No route ${key}.`)
    stats.inFlight++
    stats.peakInFlight = Math.max(stats.peakInFlight, stats.inFlight)
    response.on('close', () => {
      stats.inFlight--
      held.delete(response)
    })
    answer(request, response, route).catch((error: unknown) => {
      if (!response.headersSent) sendError(response, 500, 'mock_failure', error instanceof Error ? error.message : String(error))
      else response.destroy()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve())
  })
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    url: `http://${host}:${address.port}/v1`,
    modelName,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of held) response.destroy()
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
