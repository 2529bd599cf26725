/**
 * @module agent: what can go wrong talking to a model endpoint, classified by whose fault it is.
 * Infrastructure errors are retried and, when retries run out, reported: never scored as model failures.
 * A context-length rejection is the loop's limit, not the network's: the episode ends truncated.
 */
import { ReleaseOpsError } from '../core/errors/release-ops-error.js'

/** Whose fault a failed turn or step is. */
export type Fault = 'model' | 'tool' | 'infrastructure'

export type EndpointErrorCode =
  | 'endpoint_unreachable'
  | 'endpoint_timeout'
  | 'endpoint_status'
  | 'endpoint_truncated'
  | 'endpoint_bad_response'
  | 'endpoint_unauthorized'
  | 'endpoint_not_found'
  | 'endpoint_rejected'
  | 'context_length_exceeded'
  | 'endpoint_reply_too_large'
  | 'endpoint_redirect'

const marker = Symbol.for('releaseops.endpoint_error')

/** True for an `EndpointError`, also across duplicated package copies. */
export function isEndpointError(value: unknown): value is EndpointError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true
}

export class EndpointError extends ReleaseOpsError {
  readonly [marker] = true
  /** Worth another attempt (429, 5xx, timeouts, broken or garbled responses). */
  readonly retryable: boolean
  /** Every request will fail the same way (bad key, unknown model, rejected parameters): stop the run. */
  readonly fatal: boolean
  readonly status: number | undefined
  readonly attempts: number
  /** Seconds the server asked us to wait (`Retry-After`). */
  readonly retryAfterSeconds: number | undefined

  constructor(options: {
    code: EndpointErrorCode
    message: string
    retryable?: boolean
    fatal?: boolean
    status?: number
    attempts?: number
    retryAfterSeconds?: number
    cause?: unknown
  }) {
    super({
      code: options.code,
      message: options.message,
      details: { status: options.status ?? null, attempts: options.attempts ?? 1, retryable: options.retryable ?? false },
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    })
    this.name = 'EndpointError'
    this.retryable = options.retryable ?? false
    this.fatal = options.fatal ?? false
    this.status = options.status
    this.attempts = options.attempts ?? 1
    this.retryAfterSeconds = options.retryAfterSeconds
  }

  /** The same error after `attempts` tries. */
  withAttempts(attempts: number): EndpointError {
    return new EndpointError({
      code: this.code as EndpointErrorCode,
      message: attempts > 1 ? `${this.message} (after ${attempts} attempts)` : this.message,
      retryable: this.retryable,
      fatal: this.fatal,
      ...(this.status === undefined ? {} : { status: this.status }),
      attempts,
      ...(this.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: this.retryAfterSeconds }),
      cause: this.cause,
    })
  }

  /** Infrastructure, unless the endpoint said the prompt no longer fits (the episode's own limit). */
  get fault(): Fault | 'context_length' {
    return this.code === 'context_length_exceeded' ? 'context_length' : 'infrastructure'
  }
}

const contextLengthPattern =
  /context length|context window|maximum context|too many tokens|prompt is too long|exceeds the (?:model'?s )?(?:maximum|max)/i

/** The most characters of an endpoint's error message an error message carries. */
const maxErrorBodyChars = 200

/**
 * The error message of an OpenAI-compatible error body (`{error: {message}}`, `{error: "…"}`, vLLM's
 * `{object: "error", message}`, FastAPI's `{detail: "…"}`), or undefined for anything else: a reply that
 * is not an API's (an internal service's page) is never quoted, so it cannot land in outputs.
 */
export function apiErrorMessage(body: string, contentType: string | null): string | undefined {
  if (!(contentType ?? '').toLowerCase().includes('json')) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return undefined
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined
  const { error, object, message, detail } = parsed as Record<string, unknown>
  const found =
    typeof error === 'string'
      ? error
      : typeof (error as { message?: unknown } | null)?.message === 'string'
        ? (error as { message: string }).message
        : object === 'error' && typeof message === 'string'
          ? message
          : typeof detail === 'string'
            ? detail
            : undefined
  if (found === undefined) return undefined
  return found.length > maxErrorBodyChars ? `${found.slice(0, maxErrorBodyChars)}…` : found
}

/**
 * The error an HTTP status stands for. Its message quotes the endpoint's API error message (at most 200
 * characters); any other body is described by its status and content type only.
 */
export function errorForStatus(reply: {
  status: number
  body: string
  contentType: string | null
  retryAfterSeconds?: number | undefined
}): EndpointError {
  const { status, body, retryAfterSeconds } = reply
  const quoted = apiErrorMessage(body, reply.contentType)
  const detail = quoted ?? `${reply.contentType ?? 'no content type'} body, not an API error: not kept`
  const base = { status, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) }
  if (status === 400 && contextLengthPattern.test(body)) {
    return new EndpointError({
      code: 'context_length_exceeded',
      message: `The prompt exceeds the model's context: ${detail}`,
      ...base,
    })
  }
  if (status === 401 || status === 403) {
    return new EndpointError({
      code: 'endpoint_unauthorized',
      message: `The endpoint refused the credentials (HTTP ${status}): ${detail}`,
      fatal: true,
      ...base,
    })
  }
  if (status === 404) {
    return new EndpointError({
      code: 'endpoint_not_found',
      message: `The endpoint has no such route or model (HTTP 404): ${detail}`,
      fatal: true,
      ...base,
    })
  }
  if (status === 408 || status === 409 || status === 425 || status === 429 || status >= 500) {
    return new EndpointError({
      code: 'endpoint_status',
      message: `The endpoint answered HTTP ${status}: ${detail}`,
      retryable: true,
      ...base,
    })
  }
  return new EndpointError({
    code: 'endpoint_rejected',
    message: `The endpoint rejected the request (HTTP ${status}): ${detail}`,
    fatal: true,
    ...base,
  })
}
