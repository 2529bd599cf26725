/**
 * @module server/ws: OpenEnv's `/ws` protocol on one connection = one session. Messages are handled one
 * at a time in arrival order; replies echo an optional `request_id` (OpenEnv #1143). Recoverable errors
 * (`INVALID_JSON`, `UNKNOWN_TYPE`, `VALIDATION_ERROR`, `EXECUTION_ERROR`) keep the connection open;
 * capacity, factory and session errors close it.
 */

import type { FastifyBaseLogger } from 'fastify'
import type { RawData, WebSocket } from 'ws'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'
import type { EnvHost } from '../env-host.js'
import { wsErrorData } from '../http/http-errors.js'
import { answerJsonRpc } from '../mcp/answer-json-rpc.js'
import { type BatchLimits, dispatchJsonRpc } from '../mcp/mcp-dispatcher.js'
import type { EnvSession } from '../session/env-session.js'
import { CapacityReachedError, ClientShareReachedError, type SessionCloseReason } from '../session/session-errors.js'
import { parseWire, resetSession, stepSession, toParsedAction } from '../session/session-operations.js'
import type { SessionStore } from '../session/session-store.js'
import { type ServerShutdown, shutdownClose } from '../shutdown/server-shutdown.js'
import { fastMessage } from '../wire/fast-message.js'
import { wsEnvelope } from '../wire/observation-payload.js'
import { type WsMessage, wsMessageSchemas } from '../wire/wire-schemas.js'
import { inOrder } from './in-order.js'
import type { Keepalive } from './keepalive.js'

/** Close codes: standard ones where they fit, 4xxx for ours. */
export const closeCodes = {
  normal: 1000,
  goingAway: 1001,
  internal: 1011,
  tryAgainLater: 1013,
  idleTimeout: 4001,
  sendBufferFull: 4002,
} as const

export interface EnvSocketOptions {
  host: EnvHost
  store: SessionStore
  /** Pings both ways, and drops a client that stops reading while replies pile up. */
  keepalive: Keepalive
  /** Drains and closes the socket (1001) when the server stops. */
  shutdown: ServerShutdown
  /** The client the session is counted against (its share of the sessions). */
  client: string
  /** JSON-RPC batch caps of `{"type":"mcp"}` messages. */
  limits?: BatchLimits
  log: FastifyBaseLogger
}

function sendError(socket: WebSocket, data: Record<string, unknown>, requestId?: string | number): void {
  if (socket.readyState === socket.OPEN) socket.send(wsEnvelope('error', JSON.stringify(data), requestId))
}

/** Opens the session for a new connection, or answers `CAPACITY_REACHED` / `FACTORY_ERROR` and closes. */
export function acceptEnvSocket(socket: WebSocket, options: EnvSocketOptions): EnvSession | undefined {
  let session: EnvSession
  try {
    session = options.store.create(options.host, 'ws', options.client)
  } catch (error) {
    const capacity = CapacityReachedError.isInstance(error) || ClientShareReachedError.isInstance(error)
    if (!capacity) options.log.error(error)
    const data = capacity
      ? wsErrorData(error)
      : { code: 'FACTORY_ERROR', message: `Could not create env ${options.host.id}.`, factory_name: options.host.id }
    sendError(socket, data)
    socket.close(capacity ? closeCodes.tryAgainLater : closeCodes.internal, String(data.code))
    return undefined
  }
  options.keepalive.track(socket)
  session.onClose = (reason: SessionCloseReason) => {
    if (reason === 'idle_timeout') {
      sendError(socket, { code: 'SESSION_ERROR', message: 'Session closed after being idle too long.', reason })
      socket.close(closeCodes.idleTimeout, reason)
    } else if (reason === 'server_shutdown') {
      socket.close(shutdownClose.code, shutdownClose.reason)
    }
  }
  // In order: a JSON-RPC batch is answered asynchronously, and the messages after it wait for it.
  const handle = inOrder(
    (text: string) => handleMessage(socket, session, options, text),
    (error) => {
      options.log.error(error)
      sendError(socket, { code: 'EXECUTION_ERROR', message: 'Internal error while handling the message; see the server log.' })
    },
  )
  socket.on('message', (data) => {
    options.keepalive.seen(socket)
    handle(rawText(data))
  })
  socket.on('close', () => options.store.close(session.id, 'connection_lost'))
  options.shutdown.trackSocket({
    socket,
    idle: handle.idle,
    close: () => options.store.close(session.id, 'server_shutdown'),
  })
  return session
}

/** The `request_id` to echo, if it is a valid one (string ≤ 255 or integer), checked without zod on the hot path. */
function echoableRequestId(value: unknown): string | number | undefined {
  return (typeof value === 'string' && value.length <= 255) || Number.isSafeInteger(value)
    ? (value as string | number)
    : undefined
}

/** Text and binary frames alike are read as UTF-8 JSON. */
function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8')
}

function handleMessage(socket: WebSocket, session: EnvSession, options: EnvSocketOptions, text: string): void | Promise<void> {
  if (session.closed) return
  session.touch(options.store.now())
  let message: unknown
  try {
    message = JSON.parse(text)
  } catch (error) {
    sendError(socket, { code: 'INVALID_JSON', message: `Invalid JSON: ${(error as Error).message}` })
    return
  }
  const candidate = message as Record<string, unknown> | null
  const requestId = echoableRequestId(candidate?.request_id)
  try {
    if (typeof candidate !== 'object' || candidate === null || Array.isArray(candidate)) {
      sendError(socket, { code: 'VALIDATION_ERROR', message: 'Invalid message: expected a JSON object with a "type".' })
      return
    }
    const type = candidate.type
    if (typeof type !== 'string') {
      const known = Object.keys(wsMessageSchemas).join(', ')
      const issue = { code: 'invalid_type', path: 'type', message: `Required: one of ${known}.` }
      sendError(
        socket,
        { code: 'VALIDATION_ERROR', message: `Invalid message: type: ${issue.message}`, issues: [issue] },
        requestId,
      )
      return
    }
    if (!Object.hasOwn(wsMessageSchemas, type)) {
      sendError(socket, { code: 'UNKNOWN_TYPE', message: `Unknown message type: ${type}` }, requestId)
      return
    }
    const message =
      fastMessage(candidate) ?? (parseWire(wsMessageSchemas[type as keyof typeof wsMessageSchemas], candidate) as WsMessage)
    if (message.type === 'mcp' && Array.isArray(message.data)) return answerBatch(socket, session, options, message)
    send(socket, options, answer(socket, session, options, message))
  } catch (error) {
    const data = wsErrorData(error)
    if (!ReleaseOpsError.isInstance(error)) options.log.error(error)
    sendError(socket, data, requestId)
  }
}

function send(socket: WebSocket, options: EnvSocketOptions, reply: string | undefined): void {
  if (reply === undefined || socket.readyState !== socket.OPEN) return
  if (options.keepalive.withinBuffer(socket)) socket.send(reply)
}

async function answerBatch(
  socket: WebSocket,
  session: EnvSession,
  options: EnvSocketOptions,
  message: WsMessage & { type: 'mcp' },
): Promise<void> {
  const context = mcpContextOf(session, options)
  const reply = await answerJsonRpc(message.data, context)
  send(socket, options, reply === undefined ? undefined : wsEnvelope('mcp', reply, message.request_id))
}

function mcpContextOf(session: EnvSession, options: EnvSocketOptions) {
  return {
    host: options.host,
    store: options.store,
    session,
    client: options.client,
    ...(options.limits ? { limits: options.limits } : {}),
  }
}

function answer(socket: WebSocket, session: EnvSession, options: EnvSocketOptions, message: WsMessage): string | undefined {
  switch (message.type) {
    case 'step':
      return wsEnvelope('observation', stepSession(session, toParsedAction(message.data)), message.request_id)
    case 'reset':
      return wsEnvelope('observation', resetSession(session, message.data), message.request_id)
    case 'state':
      return wsEnvelope('state', JSON.stringify(session.state()), message.request_id)
    case 'mcp': {
      const context = mcpContextOf(session, options)
      const response = dispatchJsonRpc(message.data, context)
      return response === undefined ? undefined : wsEnvelope('mcp', JSON.stringify(response), message.request_id)
    }
    case 'close':
      options.store.close(session.id, 'client_closed')
      socket.close(closeCodes.normal, 'client_closed')
      return undefined
  }
}
