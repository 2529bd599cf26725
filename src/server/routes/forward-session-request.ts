/**
 * @module server/routes: cluster routing for session-bound HTTP requests. A session lives in the worker
 * that created it, and its id says which (`w<index>.<uuid>`); a request that lands on another worker is
 * run there through the cluster's IPC channel and its reply relayed unchanged.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ServerContext } from '../server-context.js'
import { UnknownSessionError } from '../session/session-errors.js'

/** Marks a request a worker received from another, so it is never forwarded twice. */
const forwardedHeader = 'x-releaseops-forwarded'

function ownerOfSession(sessionId: string): number | undefined {
  const match = /^w(\d+)\./.exec(sessionId)
  return match ? Number(match[1]) : undefined
}

export async function forwardIfForeign(options: {
  context: ServerContext
  request: FastifyRequest
  reply: FastifyReply
  sessionId: string | undefined
}): Promise<FastifyReply | undefined> {
  const { context, request, reply, sessionId } = options
  if (!context.forward || sessionId === undefined || request.headers[forwardedHeader] !== undefined) return undefined
  const owner = ownerOfSession(sessionId)
  if (owner === undefined || owner === context.workerIndex) return undefined
  const headers: Record<string, string> = { [forwardedHeader]: String(context.workerIndex) }
  for (const name of ['authorization', 'content-type', 'mcp-session-id', 'mcp-protocol-version']) {
    const value = request.headers[name]
    if (typeof value === 'string') headers[name] = value
  }
  const forwarded = await context.forward({
    workerIndex: owner,
    method: request.method,
    url: request.url,
    headers,
    body: request.body === undefined || request.body === null ? undefined : JSON.stringify(request.body),
  })
  // Its worker died: the session went with it; the client starts a new one (on a live worker).
  if (forwarded === undefined) throw new UnknownSessionError(sessionId)
  for (const [name, value] of Object.entries(forwarded.headers)) {
    if (name !== 'content-length' && name !== 'connection' && name !== 'transfer-encoding') reply.header(name, value)
  }
  return reply.code(forwarded.statusCode).send(forwarded.body)
}
