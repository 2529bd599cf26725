/**
 * @module server/mcp: one JSON-RPC 2.0 dispatcher for every MCP transport (HTTP `POST /mcp`, `WS /mcp`,
 * `{"type":"mcp"}` inside `/ws`, and stdio). It speaks the MCP methods an agent needs (`initialize`,
 * `ping`, `tools/list`, `tools/call`, `resources/*`) plus OpenEnv's `openenv/session/create|close`.
 * Calls target the transport's session, `params.session_id`, the `Mcp-Session-Id` header, or else a
 * temporary env (reset with defaults, one step, closed), as OpenEnv does.
 */
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'
import type { EnvHost } from '../env-host.js'
import { packageVersion } from '../package-version.js'
import { EnvSession } from '../session/env-session.js'
import { CapacityReachedError, ClientShareReachedError } from '../session/session-errors.js'
import { resetInput } from '../session/session-operations.js'
import type { SessionStore } from '../session/session-store.js'
import { type JsonRpcRequest, jsonRpcRequestSchema, resetKwargsSchema } from '../wire/wire-schemas.js'
import { callToolOnSession, mcpTools } from './mcp-tool-call.js'

export type JsonRpcId = string | number | null

export type JsonRpcResponse =
  | { jsonrpc: '2.0'; id: JsonRpcId; result: unknown }
  | { jsonrpc: '2.0'; id: JsonRpcId; error: { code: number; message: string; data?: unknown } }

export interface McpContext {
  host: EnvHost
  store: SessionStore
  /** The session a connection-bound transport owns (`/ws`, `WS /mcp`, stdio). */
  session?: EnvSession
  /** The `Mcp-Session-Id` header of an HTTP request. */
  headerSessionId?: string | undefined
  /** HTTP: `initialize` created a session; the route returns its id in the `Mcp-Session-Id` header. */
  onSessionCreated?: (sessionId: string) => void
  /** Batch caps (`answerJsonRpc`); `defaultBatchLimits` when absent. */
  limits?: BatchLimits
  /** The client sessions created here are counted against (`clientKeyOf` its address). */
  client?: string
}

export interface BatchLimits {
  /** Most requests one batch may hold; a bigger batch is refused whole, nothing run. */
  maxBatchSize: number
  /** Once a batch's reply is this large, its remaining requests are answered "not run". */
  maxBatchReplyBytes: number
}

export const defaultBatchLimits: BatchLimits = { maxBatchSize: 100, maxBatchReplyBytes: 4 * 1024 * 1024 }

export const jsonRpcErrors = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  server: -32000,
} as const

/** A JSON-RPC failure: `rpcCode` is the wire's numeric code; `code` the project's stable string. */
class JsonRpcError extends ReleaseOpsError {
  constructor(
    readonly rpcCode: number,
    message: string,
    readonly data?: unknown,
  ) {
    super({ code: 'json_rpc_error', message })
    this.name = 'JsonRpcError'
  }
}

const observationUri = 'releaseops://session/observation'
const stateUri = 'releaseops://session/state'

export function jsonRpcError(id: JsonRpcId, code: number, message: string, data?: unknown): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } }
}

/**
 * A request, notification or batch, answered synchronously; undefined when nothing is to be answered
 * (notifications). Servers answer batches with `answerJsonRpc`, which yields between requests; here a
 * batch is only capped in size.
 */
export function dispatchJsonRpc(message: unknown, context: McpContext): JsonRpcResponse | JsonRpcResponse[] | undefined {
  if (Array.isArray(message)) {
    const refused = refuseBatch(message, context.limits ?? defaultBatchLimits)
    if (refused) return refused
    const responses = message.map((item) => dispatchJsonRpcRequest(item, context)).filter((item) => item !== undefined)
    return responses.length > 0 ? responses : undefined
  }
  return dispatchJsonRpcRequest(message, context)
}

/**
 * The error for an empty or oversized batch, or one carrying `initialize` with anything else (nothing of
 * it runs), or undefined when it may run. MCP's lifecycle says `initialize` MUST NOT be part of a batch
 * and the SDK's Streamable HTTP server refuses such a batch whole ("Only one initialization request is
 * allowed"); here too, so one POST can never open sessions whose ids it does not return (decision 0047).
 */
export function refuseBatch(batch: readonly unknown[], limits: BatchLimits): JsonRpcResponse | undefined {
  if (batch.length === 0) return jsonRpcError(null, jsonRpcErrors.invalidRequest, 'Invalid Request: empty batch')
  if (batch.length > 1 && batch.some((item) => (item as { method?: unknown } | null)?.method === 'initialize')) {
    return jsonRpcError(
      null,
      jsonRpcErrors.invalidRequest,
      'Invalid Request: initialize must be sent alone, not in a batch (only one initialization request is allowed). Nothing was run.',
      { code: 'initialize_in_batch' },
    )
  }
  if (batch.length <= limits.maxBatchSize) return undefined
  return jsonRpcError(
    null,
    jsonRpcErrors.invalidRequest,
    `Invalid Request: a batch holds at most ${limits.maxBatchSize} requests; this one has ${batch.length}. Nothing was run.`,
    { code: 'batch_too_large', max_batch_size: limits.maxBatchSize },
  )
}

export function readableId(message: unknown): JsonRpcId {
  const id = (message as { id?: unknown } | null)?.id
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null
}

/** One request or notification (never a batch). */
export function dispatchJsonRpcRequest(message: unknown, context: McpContext): JsonRpcResponse | undefined {
  const parsed = jsonRpcRequestSchema.safeParse(message)
  if (!parsed.success) {
    const detail = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ')
    return jsonRpcError(readableId(message), jsonRpcErrors.invalidRequest, `Invalid Request: ${detail}`)
  }
  const request = parsed.data
  const isNotification = request.id === undefined
  try {
    const result = runMethod(request, context)
    return isNotification ? undefined : { jsonrpc: '2.0', id: request.id ?? null, result }
  } catch (error) {
    if (isNotification) return undefined
    return errorResponse(request.id ?? null, error)
  }
}

function errorResponse(id: JsonRpcId, error: unknown): JsonRpcResponse {
  if (JsonRpcError.isInstance(error)) return jsonRpcError(id, error.rpcCode, error.message, error.data)
  if (CapacityReachedError.isInstance(error)) {
    return jsonRpcError(id, jsonRpcErrors.server, error.message, {
      active_sessions: error.activeSessions,
      max_sessions: error.maxSessions,
    })
  }
  if (ClientShareReachedError.isInstance(error)) {
    return jsonRpcError(id, jsonRpcErrors.server, error.message, { code: error.code, ...error.details })
  }
  if (ReleaseOpsError.isInstance(error)) {
    return jsonRpcError(id, jsonRpcErrors.invalidParams, error.message, { code: error.code, ...error.details })
  }
  return jsonRpcError(id, jsonRpcErrors.internal, 'Internal error; see the server log.')
}

function runMethod(request: JsonRpcRequest, context: McpContext): unknown {
  const params = request.params ?? {}
  if (request.method.startsWith('notifications/')) return {}
  switch (request.method) {
    case 'initialize':
      return initialize(params, context)
    case 'ping':
      return {}
    case 'tools/list':
      return { tools: mcpTools(context.host) }
    case 'tools/call':
      return callTool(params, context)
    case 'resources/list':
      return { resources: boundSession(params, context) ? resourceList() : [] }
    case 'resources/read':
      return readResource(params, context)
    case 'openenv/session/create': {
      const session = createSession(context, params)
      return { session_id: session.id }
    }
    case 'openenv/session/close': {
      const sessionId = params.session_id
      if (typeof sessionId !== 'string') throw new JsonRpcError(jsonRpcErrors.invalidParams, 'params.session_id is required')
      context.store.require(sessionId, context.host)
      context.store.close(sessionId, 'client_closed')
      return { session_id: sessionId, closed: true }
    }
    default:
      throw new JsonRpcError(jsonRpcErrors.methodNotFound, `Method not found: ${request.method}`)
  }
}

function negotiate(requested: unknown): string {
  return typeof requested === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION
}

function initialize(params: Record<string, unknown>, context: McpContext) {
  let session = boundSession(params, context)
  if (!session && context.onSessionCreated) {
    session = createSession(context, {})
    context.onSessionCreated(session.id)
  }
  const spec = context.host.spec
  const start = session
    ? `\n\nThe episode has started (seed and options as the session was created). Current observation:\n${session.lastText}`
    : ''
  return {
    protocolVersion: negotiate(params.protocolVersion),
    capabilities: { tools: { listChanged: false }, resources: { subscribe: false, listChanged: false } },
    serverInfo: { name: `releaseops/${spec.id}`, title: `ReleaseOps ${spec.id}`, version: packageVersion },
    instructions: `${spec.description}\n\nEach tool call is one env step; its result is the text the env shows the agent.${start}`,
  }
}

/** Creates an MCP session and resets it (params are reset kwargs: seed, options, dataset-row fields). */
function createSession(context: McpContext, params: Record<string, unknown>): EnvSession {
  const parsed = resetKwargsSchema.safeParse(params)
  if (!parsed.success) throw new JsonRpcError(jsonRpcErrors.invalidParams, `Invalid reset arguments: ${parsed.error.message}`)
  const session = context.store.create(context.host, 'mcp', context.client)
  try {
    resetInput(session, session.reset(parsed.data))
  } catch (error) {
    context.store.close(session.id, 'client_closed')
    throw error
  }
  return session
}

function boundSession(params: Record<string, unknown>, context: McpContext): EnvSession | undefined {
  // A session id that is not a string is a mistake to report, never a reason to play a throwaway env.
  if (params.session_id !== undefined && typeof params.session_id !== 'string') {
    throw new JsonRpcError(
      jsonRpcErrors.invalidParams,
      `Invalid params: params.session_id must be a string (the id openenv/session/create returned), not ${jsonTypeOf(params.session_id)}.`,
      { code: 'invalid_session_id', path: 'params.session_id' },
    )
  }
  if (context.session) return context.session
  const sessionId = typeof params.session_id === 'string' ? params.session_id : context.headerSessionId
  return sessionId === undefined ? undefined : context.store.require(sessionId, context.host)
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null'
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`
}

function callTool(params: Record<string, unknown>, context: McpContext) {
  const name = params.name
  if (typeof name !== 'string') throw new JsonRpcError(jsonRpcErrors.invalidParams, 'params.name (the tool name) is required')
  const session = boundSession(params, context)
  if (session) return callToolOnSession(session, name, params.arguments)
  // No session: a temporary env, reset with the defaults, closed after the call (OpenEnv's behaviour).
  const temporary = new EnvSession({ id: 'temporary', host: context.host, kind: 'mcp', now: context.store.now() })
  try {
    temporary.reset(undefined)
    return callToolOnSession(temporary, name, params.arguments)
  } finally {
    temporary.close('client_closed')
  }
}

function resourceList() {
  return [
    {
      uri: observationUri,
      name: 'observation',
      description: 'The latest observation as the agent sees it.',
      mimeType: 'text/plain',
    },
    { uri: stateUri, name: 'state', description: 'The public episode state.', mimeType: 'application/json' },
  ]
}

function readResource(params: Record<string, unknown>, context: McpContext) {
  const session = boundSession(params, context)
  if (!session) throw new JsonRpcError(jsonRpcErrors.invalidParams, 'Resources need a session (Mcp-Session-Id or session_id).')
  if (params.uri === observationUri)
    return { contents: [{ uri: observationUri, mimeType: 'text/plain', text: session.lastText }] }
  if (params.uri === stateUri) {
    return { contents: [{ uri: stateUri, mimeType: 'application/json', text: JSON.stringify(session.state()) }] }
  }
  throw new JsonRpcError(jsonRpcErrors.invalidParams, `Unknown resource: ${String(params.uri)}`)
}
