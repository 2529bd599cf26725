/**
 * @module server/mcp: JSON-RPC messages answered as JSON text, batches without blocking the event loop
 * (issue 18 item 2; decision 0043). A batch over `maxBatchSize` is refused whole; an allowed one runs a
 * request at a time with a yield to the loop between requests, so `/health` and other sessions are served
 * meanwhile; once the reply reaches `maxBatchReplyBytes`, the remaining requests are answered "not run"
 * (small errors), which bounds the reply and the memory it takes.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises'
import {
  defaultBatchLimits,
  dispatchJsonRpcRequest,
  jsonRpcError,
  jsonRpcErrors,
  type McpContext,
  readableId,
  refuseBatch,
} from './mcp-dispatcher.js'

/** The reply's JSON text, or undefined when nothing is to be answered (notifications only). */
export async function answerJsonRpc(message: unknown, context: McpContext): Promise<string | undefined> {
  if (!Array.isArray(message)) {
    const response = dispatchJsonRpcRequest(message, context)
    return response === undefined ? undefined : JSON.stringify(response)
  }
  const limits = context.limits ?? defaultBatchLimits
  const refused = refuseBatch(message, limits)
  if (refused) return JSON.stringify(refused)
  const parts: string[] = []
  let bytes = 2
  for (let index = 0; index < message.length; index++) {
    if (index > 0) await yieldToLoop()
    // The connection that owns the session went away while the batch ran: nobody reads the rest.
    if (context.session?.closed) return undefined
    const item: unknown = message[index]
    let part: string | undefined
    if (bytes >= limits.maxBatchReplyBytes) {
      const isNotification = (item as { id?: unknown } | null)?.id === undefined
      if (!isNotification) {
        part = JSON.stringify(
          jsonRpcError(readableId(item), jsonRpcErrors.server, 'Not run: the batch reply reached its size limit.', {
            code: 'batch_reply_limit',
            max_batch_reply_bytes: limits.maxBatchReplyBytes,
          }),
        )
      }
    } else {
      const response = dispatchJsonRpcRequest(item, context)
      if (response !== undefined) part = JSON.stringify(response)
    }
    if (part !== undefined) {
      parts.push(part)
      bytes += part.length + 1
    }
  }
  return parts.length > 0 ? `[${parts.join(',')}]` : undefined
}
