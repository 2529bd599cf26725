/**
 * @module server/mcp: MCP over HTTP and WebSocket for one env. `POST /mcp` is JSON-RPC that always
 * answers HTTP 200 (OpenEnv; `openenv validate` posts `{}`) and also works as MCP Streamable HTTP in JSON
 * mode: `initialize` opens a session returned in `Mcp-Session-Id`, `DELETE /mcp` closes it.
 * `WS /mcp` is one session per connection.
 */
import type { FastifyInstance } from 'fastify'
import type { WebSocket } from 'ws'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'
import type { EnvHost } from '../env-host.js'
import { clientKeyOf } from '../http/client-key.js'
import { HttpError, httpErrorBody } from '../http/http-errors.js'
import { forwardIfForeign } from '../routes/forward-session-request.js'
import type { ServerContext } from '../server-context.js'
import { resetInput } from '../session/session-operations.js'
import { shutdownClose } from '../shutdown/server-shutdown.js'
import { closeCodes } from '../ws/env-socket.js'
import { inOrder } from '../ws/in-order.js'
import { answerJsonRpc } from './answer-json-rpc.js'
import { type BatchLimits, jsonRpcError, jsonRpcErrors } from './mcp-dispatcher.js'

const sessionHeader = 'mcp-session-id'

function headerSession(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined
}

function bodySessionId(body: unknown): string | undefined {
  const params = (body as { params?: { session_id?: unknown } } | null)?.params
  return typeof params?.session_id === 'string' ? params.session_id : undefined
}

export function registerMcpRoutes(app: FastifyInstance, options: { context: ServerContext; host: EnvHost; prefix: string }) {
  const { context, host, prefix } = options
  const tags = [`${host.id} mcp`]

  app.post(
    `${prefix}/mcp`,
    {
      config: { access: 'session', jsonRpc: true },
      schema: { summary: 'MCP JSON-RPC: tools/list, tools/call, openenv/session/create|close, initialize.', tags },
      preHandler: async (request, reply) =>
        forwardIfForeign({
          context,
          request,
          reply,
          sessionId: headerSession(request.headers[sessionHeader]) ?? bodySessionId(request.body),
        }),
    },
    async (request, reply) => {
      let created: string | undefined
      const text = await answerJsonRpc(request.body ?? null, {
        host,
        store: context.store,
        client: clientKeyOf(request.socket.remoteAddress),
        headerSessionId: headerSession(request.headers[sessionHeader]),
        onSessionCreated: (sessionId) => {
          created = sessionId
        },
        limits: batchLimitsOf(context),
      })
      if (created !== undefined) reply.header(sessionHeader, created)
      if (text === undefined) return reply.code(202).send()
      return reply.code(200).type('application/json; charset=utf-8').send(text)
    },
  )

  app.delete(
    `${prefix}/mcp`,
    {
      config: { access: 'session' },
      schema: { summary: 'Close the MCP session named by the Mcp-Session-Id header.', tags },
      preHandler: async (request, reply) =>
        forwardIfForeign({ context, request, reply, sessionId: headerSession(request.headers[sessionHeader]) }),
    },
    async (request) => {
      const sessionId = headerSession(request.headers[sessionHeader])
      if (sessionId === undefined) {
        throw new HttpError({ status: 400, code: 'missing_session_header', message: 'Send the Mcp-Session-Id header.' })
      }
      context.store.require(sessionId, host)
      context.store.close(sessionId, 'client_closed')
      return { session_id: sessionId, closed: true }
    },
  )

  app.route({
    method: 'GET',
    url: `${prefix}/mcp`,
    config: { access: 'session' },
    schema: { summary: 'WS /mcp: JSON-RPC over WebSocket, one session per connection.', tags, hide: true },
    handler: async (_request, reply) => {
      reply.header('allow', 'POST, DELETE')
      const error = new HttpError({ status: 405, code: 'method_not_allowed', message: 'Use POST for JSON-RPC, or a WebSocket.' })
      return reply.code(405).send(httpErrorBody(error))
    },
    wsHandler: (socket: WebSocket, request) =>
      acceptMcpSocket(socket, { context, host, log: request.log, client: clientKeyOf(request.socket.remoteAddress) }),
  })
}

function acceptMcpSocket(
  socket: WebSocket,
  options: { context: ServerContext; host: EnvHost; log: FastifyInstance['log']; client: string },
) {
  const { context, host } = options
  let session: ReturnType<ServerContext['store']['create']>
  try {
    session = context.store.create(host, 'mcp', options.client)
    resetInput(session, session.reset(undefined))
  } catch (error) {
    const data = ReleaseOpsError.isInstance(error) ? { code: error.code, ...error.details } : undefined
    socket.send(JSON.stringify(jsonRpcError(null, jsonRpcErrors.server, (error as Error).message, data)))
    socket.close(closeCodes.tryAgainLater, 'capacity_reached')
    return
  }
  context.keepalive.track(socket)
  session.onClose = (reason) => {
    if (reason === 'idle_timeout') socket.close(closeCodes.idleTimeout, reason)
    else if (reason === 'server_shutdown') socket.close(shutdownClose.code, shutdownClose.reason)
  }
  socket.on('close', () => context.store.close(session.id, 'connection_lost'))
  const limits = batchLimitsOf(context)
  const handle = inOrder(
    async (text: string) => {
      session.touch(context.store.now())
      let message: unknown
      try {
        message = JSON.parse(text)
      } catch (error) {
        socket.send(JSON.stringify(jsonRpcError(null, jsonRpcErrors.parse, `Parse error: ${(error as Error).message}`)))
        return
      }
      const reply = await answerJsonRpc(message, { host, store: context.store, session, limits, client: options.client })
      if (reply !== undefined && socket.readyState === socket.OPEN && context.keepalive.withinBuffer(socket)) socket.send(reply)
    },
    (error) => {
      options.log.error(error)
      if (socket.readyState === socket.OPEN) {
        socket.send(JSON.stringify(jsonRpcError(null, jsonRpcErrors.internal, 'Internal error; see the server log.')))
      }
    },
  )
  socket.on('message', (data) => {
    context.keepalive.seen(socket)
    handle(data.toString())
  })
  context.shutdown.trackSocket({
    socket,
    idle: handle.idle,
    close: () => context.store.close(session.id, 'server_shutdown'),
  })
}

export function batchLimitsOf(context: ServerContext): BatchLimits {
  return { maxBatchSize: context.options.maxBatchSize, maxBatchReplyBytes: context.options.maxBatchReplyBytes }
}
