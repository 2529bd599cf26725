/**
 * @module agent: POSTs to an OpenAI-compatible endpoint over an injectable `fetch` (by default the
 * project's outbound fetch, io/outbound, with an open policy: the user named the URL; the server passes
 * one bound to its operator's policy), with a per-attempt
 * timeout, bounded concurrency, and retries with backoff on 429, 5xx, timeouts, broken connections,
 * truncated bodies or streams and garbled JSON. Each failure is classified (endpoint-error.ts).
 */
import { createOutboundFetch } from '../io/outbound/outbound-fetch.js'
import { OutboundPolicy } from '../io/outbound/outbound-policy.js'
import { OutboundRefusedError } from '../io/outbound/outbound-refused-error.js'
import { redactUrl } from '../io/outbound/redact-url.js'
import { boundedStream, defaultMaxReplyBytes, readBoundedText, readPrefix, redirectRefused } from './bounded-body.js'
import { ConcurrencyLimiter } from './concurrency-limiter.js'
import { EndpointError, errorForStatus, isEndpointError } from './endpoint-error.js'
import { readSseStream } from './read-sse-stream.js'
import { backoffDelay, defaultRetryPolicy, parseRetryAfter, type RetryPolicy, sleep } from './retry-policy.js'

export interface EndpointClientOptions {
  /** e.g. `http://127.0.0.1:8000/v1`. */
  baseUrl: string
  apiKey?: string
  headers?: Record<string, string>
  /** Every request goes through it; the outbound module's (open policy) when absent. */
  fetch?: typeof fetch
  /** Per attempt, headers and body included. */
  timeoutMs?: number
  retry?: Partial<RetryPolicy>
  /** Requests in flight at once (across every episode sharing this client). */
  maxConcurrency?: number
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
  random?: () => number
  onRetry?: (event: { attempt: number; error: EndpointError; delayMs: number }) => void
  /** Largest reply read (body or stream); a bigger one fails with `endpoint_reply_too_large` (default 16 MiB). */
  maxReplyBytes?: number
}

/** Bytes of an error body read: enough for its first 200 characters whatever their encoding. */
const errorBodyBytes = 1024

export interface EndpointResponse {
  body: Record<string, unknown>
  attempts: number
  /** From the first attempt's start to the successful response's end, backoff included. */
  latencyMs: number
  firstTokenMs: number | null
  /** The codes of the attempts that failed before this one. */
  retried: string[]
}

/** The default transport: the outbound module with no destination check (the caller named the URL). */
const openFetch = createOutboundFetch(OutboundPolicy.open())

export class EndpointClient {
  /** The base URL as it may be shown and recorded (credentials redacted). */
  readonly baseUrl: string
  /** The base URL requests go to (credentials, if any, become Basic authorization in transit). */
  private readonly requestBase: string
  private readonly fetch: typeof fetch
  private readonly policy: RetryPolicy
  private readonly limiter: ConcurrencyLimiter
  private readonly timeoutMs: number
  private readonly maxReplyBytes: number

  constructor(private readonly options: EndpointClientOptions) {
    this.requestBase = options.baseUrl.replace(/\/+$/, '')
    this.baseUrl = redactUrl(this.requestBase)
    this.fetch = options.fetch ?? openFetch
    this.policy = { ...defaultRetryPolicy, ...options.retry }
    this.limiter = new ConcurrencyLimiter(options.maxConcurrency ?? 16)
    this.timeoutMs = options.timeoutMs ?? 120_000
    this.maxReplyBytes = options.maxReplyBytes ?? defaultMaxReplyBytes
  }

  /** The most requests this client ever had in flight at once. */
  get peakConcurrency(): number {
    return this.limiter.peak
  }

  private headers(): Record<string, string> {
    return {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
      ...this.options.headers,
    }
  }

  /**
   * POSTs with retries. `validate` runs on each attempt's body; an `EndpointError` it throws (a body with
   * no usable choice) is retried like any other garbled answer.
   */
  async post(options: {
    path: string
    body: Record<string, unknown>
    kind: 'chat' | 'completion'
    signal?: AbortSignal
    validate?: (body: Record<string, unknown>) => void
  }): Promise<EndpointResponse> {
    const started = performance.now()
    const retried: string[] = []
    const wait = this.options.sleep ?? sleep
    const random = this.options.random ?? Math.random
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await this.limiter.run(() => this.attempt({ ...options, started }))
        options.validate?.(result.body)
        return {
          body: result.body,
          attempts: attempt,
          latencyMs: performance.now() - started,
          firstTokenMs: result.firstTokenMs,
          retried,
        }
      } catch (error) {
        if (!isEndpointError(error)) throw error
        const endpointError = error as EndpointError
        if (!endpointError.retryable || attempt >= this.policy.maxAttempts || options.signal?.aborted)
          throw endpointError.withAttempts(attempt)
        retried.push(endpointError.code)
        const delayMs = backoffDelay({
          policy: this.policy,
          attempt,
          random,
          ...(endpointError.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: endpointError.retryAfterSeconds }),
        })
        this.options.onRetry?.({ attempt, error: endpointError, delayMs })
        await wait(delayMs, options.signal)
      }
    }
  }

  private async attempt(options: {
    path: string
    body: Record<string, unknown>
    kind: 'chat' | 'completion'
    signal?: AbortSignal
    started: number
  }): Promise<{ body: Record<string, unknown>; firstTokenMs: number | null }> {
    const timeout = AbortSignal.timeout(this.timeoutMs)
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
    const stream = options.body.stream === true
    try {
      let response: Response
      try {
        response = await whenNotAborted(
          this.fetch(`${this.requestBase}${options.path}`, {
            method: 'POST',
            headers: this.headers(),
            body: JSON.stringify(options.body),
            signal,
            redirect: 'manual',
          }),
          signal,
        )
      } catch (error) {
        if (OutboundRefusedError.isInstance(error)) throw error
        throw this.transportError(error, timeout, options.signal)
      }
      this.refuseRedirect(response)
      if (!response.ok) {
        throw errorForStatus({
          status: response.status,
          body: await readPrefix(response, errorBodyBytes),
          contentType: response.headers.get('content-type'),
          retryAfterSeconds: parseRetryAfter(response.headers.get('retry-after')),
        })
      }
      if (stream && response.body && (response.headers.get('content-type') ?? '').includes('text/event-stream')) {
        const body = boundedStream(response.body, this.maxReplyBytes)
        return await readSseStream({ stream: body, kind: options.kind, startedAt: options.started })
      }
      let text: string
      try {
        text = await whenNotAborted(readBoundedText(response, this.maxReplyBytes), signal)
      } catch (error) {
        if (isEndpointError(error)) throw error
        throw this.transportError(error, timeout, options.signal, 'endpoint_truncated')
      }
      return { body: parseBody(text, response.headers.get('content-type')), firstTokenMs: null }
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason ?? error
      if (OutboundRefusedError.isInstance(error)) throw error
      if (isEndpointError(error) && !(timeout.aborted && error.code === 'endpoint_truncated')) throw error
      throw this.transportError(error, timeout, options.signal)
    }
  }

  /** 3xx (fetch returns them as they are with `redirect: 'manual'`) fails: the named endpoint is the one asked. */
  private refuseRedirect(response: Response): void {
    if (response.status >= 300 && response.status < 400) {
      void response.body?.cancel().catch(() => {})
      throw redirectRefused(response.status, response.headers.get('location'), this.baseUrl)
    }
  }

  private transportError(
    error: unknown,
    timeout: AbortSignal,
    caller: AbortSignal | undefined,
    code: 'endpoint_unreachable' | 'endpoint_truncated' = 'endpoint_unreachable',
  ) {
    if (caller?.aborted) return caller.reason ?? error
    if (timeout.aborted) {
      return new EndpointError({
        code: 'endpoint_timeout',
        message: `No complete answer within ${this.timeoutMs} ms.`,
        retryable: true,
        cause: error,
      })
    }
    const detail = transportDetail(error)
    const message =
      code === 'endpoint_truncated' ? `The response broke off: ${detail}` : `Cannot reach ${this.baseUrl}: ${detail}`
    return new EndpointError({ code, message, retryable: true, cause: error })
  }

  /** `GET /models`: the model ids the endpoint serves (no retries: used to check a configuration). */
  async models(): Promise<string[]> {
    let response: Response
    try {
      response = await this.fetch(`${this.requestBase}/models`, {
        headers: this.headers(),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'manual',
      })
    } catch (error) {
      if (OutboundRefusedError.isInstance(error)) throw error
      const timedOut = (error as Error).name === 'TimeoutError'
      throw new EndpointError({
        code: timedOut ? 'endpoint_timeout' : 'endpoint_unreachable',
        message: timedOut
          ? `${this.baseUrl}/models did not answer within ${this.timeoutMs} ms.`
          : `Cannot reach ${this.baseUrl}: ${transportDetail(error)}`,
        retryable: true,
        cause: error,
      })
    }
    this.refuseRedirect(response)
    if (!response.ok) {
      throw errorForStatus({
        status: response.status,
        body: await readPrefix(response, errorBodyBytes),
        contentType: response.headers.get('content-type'),
      })
    }
    const body = parseBody(await readBoundedText(response, this.maxReplyBytes), response.headers.get('content-type'))
    const data = Array.isArray(body.data) ? body.data : []
    return data.map((item) => String((item as { id?: unknown }).id))
  }
}

const causeWords: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  EHOSTUNREACH: 'host unreachable',
}

/** A fetch failure's cause in words: "connection refused (ECONNREFUSED)" rather than "fetch failed". */
function transportDetail(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  const code = cause?.code
  if (code !== undefined) return causeWords[code] ? `${causeWords[code]} (${code})` : code
  return cause?.message ?? (error as Error).message
}

/** Settles with `promise`, or rejects when `signal` aborts first (a custom fetch may ignore the signal). */
function whenNotAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}

/** The JSON object of a reply; anything else is described (content type, size), never quoted. */
function parseBody(text: string, contentType: string | null): Record<string, unknown> {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch (error) {
    throw new EndpointError({
      code: 'endpoint_bad_response',
      message: `The response is not JSON (${contentType ?? 'no content type'}, ${Buffer.byteLength(text)} bytes; not kept).`,
      retryable: true,
      cause: error,
    })
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new EndpointError({ code: 'endpoint_bad_response', message: 'The response is not a JSON object.', retryable: true })
  }
  return body as Record<string, unknown>
}
