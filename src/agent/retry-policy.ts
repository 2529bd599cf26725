/** @module agent: exponential backoff with jitter for endpoint retries; `Retry-After` wins when longer. */

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number
  initialDelayMs: number
  maxDelayMs: number
  multiplier: number
  /** The longest `Retry-After` honoured. */
  maxRetryAfterMs: number
}

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 5,
  initialDelayMs: 500,
  maxDelayMs: 20_000,
  multiplier: 2,
  maxRetryAfterMs: 60_000,
}

/** The wait before attempt `attempt + 1` (attempt counts from 1); "equal jitter": half fixed, half random. */
export function backoffDelay(options: {
  policy: RetryPolicy
  attempt: number
  random: () => number
  retryAfterSeconds?: number
}): number {
  const { policy, attempt } = options
  const exponential = Math.min(policy.maxDelayMs, policy.initialDelayMs * policy.multiplier ** (attempt - 1))
  const jittered = exponential / 2 + (exponential / 2) * options.random()
  const requested =
    options.retryAfterSeconds === undefined ? 0 : Math.min(policy.maxRetryAfterMs, options.retryAfterSeconds * 1000)
  return Math.max(jittered, requested)
}

/** Resolves after `ms`, or rejects with the signal's reason when aborted first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** Parses `Retry-After` (seconds or an HTTP date) into seconds. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (!value) return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds) && seconds >= 0) return seconds
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000)
}
