/**
 * @module agent: reading a model endpoint's reply within a byte cap (issue 28 item 3). A reply over the
 * cap is cut at the cap and fails with `endpoint_reply_too_large` (fatal: the next reply would be as big,
 * and each one held in memory starves the process); a declared `Content-Length` over it fails before
 * any byte is read. Error bodies are read only up to a small prefix.
 */
import { redactUrl } from '../io/outbound/redact-url.js'
import { EndpointError } from './endpoint-error.js'

export const defaultMaxReplyBytes = 16 * 1024 * 1024

function replyTooLarge(limit: number, declared?: number): EndpointError {
  return new EndpointError({
    code: 'endpoint_reply_too_large',
    message: `The endpoint's reply is larger than the ${limit}-byte cap${declared === undefined ? '' : ` (Content-Length ${declared})`}; it was cut there. Raise the cap (--max-model-reply) if the model really answers that much.`,
    fatal: true,
  })
}

/** The body as text, or `endpoint_reply_too_large` once more than `limit` bytes arrive. */
export async function readBoundedText(response: Response, limit: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? '')
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => {})
    throw replyTooLarge(limit, declared)
  }
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > limit) {
      await reader.cancel().catch(() => {})
      throw replyTooLarge(limit)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** At most `limit` bytes of the body as text (the rest is not read): for error bodies. */
export async function readPrefix(response: Response, limit: number): Promise<string> {
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  try {
    while (total < limit) {
      const { value, done } = await reader.read()
      if (done) break
      chunks.push(value)
      total += value.byteLength
    }
  } catch {
    // A broken error body still leaves its status to report.
  }
  await reader.cancel().catch(() => {})
  return Buffer.concat(chunks).toString('utf8').slice(0, limit)
}

/** `stream`, erroring with `endpoint_reply_too_large` once more than `limit` bytes pass. */
export function boundedStream(stream: ReadableStream<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
  let total = 0
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        total += chunk.byteLength
        if (total > limit) controller.error(replyTooLarge(limit))
        else controller.enqueue(chunk)
      },
    }),
  )
}

/** A redirect is not followed: the endpoint named is the one asked (a 3xx could point anywhere). */
export function redirectRefused(status: number, location: string | null, baseUrl: string): EndpointError {
  return new EndpointError({
    code: 'endpoint_redirect',
    message: `The endpoint answered a redirect (HTTP ${status}${location ? ` to ${redactUrl(location.slice(0, 200))}` : ''}); redirects are not followed: give the final address as the base URL instead of ${redactUrl(baseUrl)}.`,
    fatal: true,
    status,
  })
}
