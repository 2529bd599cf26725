/**
 * @module server/wire: the hot path of `/ws`. Most frames are a plain `step` `{tool, arguments}` or a
 * `reset`; recognising those by hand skips zod (a few µs a frame). Anything else — or anything this is
 * unsure about — returns undefined and goes through the zod schemas, which stay the single source of
 * truth; a property test checks that whatever this accepts, zod accepts with the same result.
 */
import type { WsMessage } from './wire-schemas.js'

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype

const isRequestId = (value: unknown) =>
  value === undefined || (typeof value === 'string' && value.length <= 255) || Number.isSafeInteger(value)

function onlyKeys(object: Record<string, unknown>, allowed: readonly string[]): boolean {
  for (const key in object) if (!allowed.includes(key)) return false
  return true
}

const envelopeKeys = ['type', 'data', 'request_id'] as const
const toolCallKeys = ['tool', 'arguments'] as const

/** A `step` or `reset` message in its common valid shape, else undefined (use the schemas). */
export function fastMessage(message: Record<string, unknown>): WsMessage | undefined {
  if (!onlyKeys(message, envelopeKeys) || !isRequestId(message.request_id)) return undefined
  const data = message.data
  const requestId = message.request_id as string | number | undefined
  if (message.type === 'step') {
    if (!isPlainObject(data) || !onlyKeys(data, toolCallKeys) || data.tool === undefined) return undefined
    const action = data.arguments === undefined ? { tool: data.tool } : { tool: data.tool, arguments: data.arguments }
    return requestId === undefined ? { type: 'step', data: action } : { type: 'step', data: action, request_id: requestId }
  }
  if (message.type === 'reset') {
    if (data !== undefined) {
      if (!isPlainObject(data)) return undefined
      if (data.seed !== undefined && !(Number.isSafeInteger(data.seed) && (data.seed as number) >= 0)) return undefined
      if (data.episode_id !== undefined && !(typeof data.episode_id === 'string' && data.episode_id.length <= 255))
        return undefined
      if (data.options !== undefined && !isPlainObject(data.options)) return undefined
    }
    const base = data === undefined ? { type: 'reset' as const } : { type: 'reset' as const, data: data as never }
    return requestId === undefined ? base : { ...base, request_id: requestId }
  }
  return undefined
}
