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
import type { TokenCounter } from '../token-counter.js'
import { answerModelRequest, type MockAnswerContext, type ModelRoute } from './answer-model-request.js'
import type { FaultKind, FaultPlan } from './fault-plan.js'
import { sendError, sendJson } from './mock-http.js'
import type { ScriptedPolicyModel } from './scripted-policy-model.js'

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

/** `GET /v1/models`: the one model, with its checkpoint (`root`) and base (`parent`) when given, as vLLM names them. */
export function modelList(options: Pick<MockOpenAiServerOptions, 'modelRoot' | 'modelParent'>, modelName: string) {
  return {
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
  }
}

/** The model route a `METHOD /path` key names, or null. */
export function modelRouteOf(key: string): ModelRoute | null {
  return key === 'POST /v1/chat/completions' ? 'chat' : key === 'POST /v1/completions' ? 'completion' : null
}

/** Routes one request: health, the API key, the model list, then a model route (counted in flight) or 404. */
function handleRequest(context: MockAnswerContext, request: IncomingMessage, response: ServerResponse) {
  const { stats, options } = context
  stats.requests++
  const path = (request.url ?? '/').split('?')[0] as string
  const key = `${request.method} ${path}`
  stats.byRoute[key] = (stats.byRoute[key] ?? 0) + 1
  if (key === 'GET /health') return sendJson(response, 200, { status: 'ok' })
  if (path.startsWith('/v1/') && options.apiKey && request.headers.authorization !== `Bearer ${options.apiKey}`) {
    return sendError(response, 401, 'invalid_api_key', 'Missing or wrong API key.')
  }
  if (key === 'GET /v1/models') return sendJson(response, 200, modelList(options, context.modelName))
  const route = modelRouteOf(key)
  if (!route) return sendError(response, 404, 'not_found', `No route ${key}.`)
  stats.inFlight++
  stats.peakInFlight = Math.max(stats.peakInFlight, stats.inFlight)
  response.on('close', () => {
    stats.inFlight--
    context.held.delete(response)
  })
  answerModelRequest(context, request, response, route).catch((error: unknown) => {
    if (!response.headersSent) sendError(response, 500, 'mock_failure', error instanceof Error ? error.message : String(error))
    else response.destroy()
  })
}

export async function startMockOpenAiServer(options: MockOpenAiServerOptions): Promise<MockOpenAiServer> {
  const context: MockAnswerContext = {
    options,
    format: chatFormat(options.format),
    modelName: options.modelName ?? 'scripted',
    stats: { requests: 0, modelRequests: 0, byRoute: {}, faults: {}, rejected: 0, inFlight: 0, peakInFlight: 0 },
    held: new Set<ServerResponse>(),
  }
  const server: Server = createServer((request, response) => handleRequest(context, request, response))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve())
  })
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    url: `http://${host}:${address.port}/v1`,
    modelName: context.modelName,
    stats: context.stats,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of context.held) response.destroy()
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
