/** The HTTP client with an injected fetch: which failures are retried, how long it waits, what it reports. */
import { describe, expect, it } from 'vitest'
import { EndpointClient } from './endpoint-client.js'
import { isEndpointError } from './endpoint-error.js'
import { backoffDelay, defaultRetryPolicy, parseRetryAfter } from './retry-policy.js'

const ok = () => new Response(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'hi' } }] }), { status: 200 })

function scripted(responses: (() => Response | Promise<Response>)[]) {
  const calls: RequestInit[] = []
  const fetchDouble = (async (_url: string, init: RequestInit) => {
    calls.push(init)
    const next = responses[calls.length - 1] ?? ok
    return next()
  }) as unknown as typeof fetch
  return { fetchDouble, calls }
}

function client(
  fetchDouble: typeof fetch,
  waits: number[],
  options: Partial<ConstructorParameters<typeof EndpointClient>[0]> = {},
) {
  return new EndpointClient({
    baseUrl: 'http://model.test/v1/',
    fetch: fetchDouble,
    apiKey: 'k',
    sleep: async (ms) => {
      waits.push(ms)
    },
    random: () => 0.5,
    ...options,
  })
}

describe('EndpointClient', () => {
  it('retries 429 and 5xx with exponential backoff and honours Retry-After', async () => {
    const { fetchDouble, calls } = scripted([
      () => new Response('slow down', { status: 429, headers: { 'retry-after': '3' } }),
      () => new Response('boom', { status: 502 }),
      () => new Response('boom', { status: 503 }),
    ])
    const waits: number[] = []
    const response = await client(fetchDouble, waits).post({ path: '/chat/completions', body: { model: 'm' }, kind: 'chat' })
    expect(response.attempts).toBe(4)
    expect(response.retried).toEqual(['endpoint_status', 'endpoint_status', 'endpoint_status'])
    expect(waits).toEqual([3000, 750, 1500])
    expect(calls[0]?.headers).toMatchObject({ authorization: 'Bearer k', 'content-type': 'application/json' })
    expect(JSON.parse(calls[0]?.body as string)).toEqual({ model: 'm' })
  })

  it('gives up after maxAttempts with the last error and its attempt count', async () => {
    const { fetchDouble } = scripted(Array.from({ length: 9 }, () => () => new Response('{}', { status: 500 })))
    const error = await client(fetchDouble, [], { retry: { maxAttempts: 3 } })
      .post({ path: '/x', body: {}, kind: 'chat' })
      .catch((caught: unknown) => caught)
    expect(isEndpointError(error) && [error.code, error.attempts, error.retryable, error.status]).toEqual([
      'endpoint_status',
      3,
      true,
      500,
    ])
  })

  it('does not retry what will fail again, and classifies context-length rejections', async () => {
    for (const [status, body, code, fatal] of [
      [400, 'unknown field "foo"', 'endpoint_rejected', true],
      [401, 'bad key', 'endpoint_unauthorized', true],
      [404, 'model not found', 'endpoint_not_found', true],
      [400, "This model's maximum context length is 32768 tokens", 'context_length_exceeded', false],
    ] as const) {
      const { fetchDouble, calls } = scripted([() => new Response(body, { status })])
      const error = await client(fetchDouble, [])
        .post({ path: '/x', body: {}, kind: 'chat' })
        .catch((caught: unknown) => caught)
      expect(isEndpointError(error) && [error.code, error.fatal, error.attempts]).toEqual([code, fatal, 1])
      expect(calls).toHaveLength(1)
    }
  })

  it('a validator that throws something other than an EndpointError is a bug, not retried', async () => {
    const { fetchDouble, calls } = scripted([ok])
    const error = await client(fetchDouble, [])
      .post({
        path: '/x',
        body: {},
        kind: 'chat',
        validate: () => {
          throw new TypeError('bug')
        },
      })
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(TypeError)
    expect(calls).toHaveLength(1)
  })

  it('retries garbled bodies, network failures, unusable bodies and timeouts (even with a fetch that ignores its signal)', async () => {
    const { EndpointError } = await import('./endpoint-error.js')
    const { fetchDouble } = scripted([
      () => new Response('<html>', { status: 200 }),
      () => Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } })),
      () => new Response(JSON.stringify({ choices: [] }), { status: 200 }),
      () => new Promise<Response>(() => {}),
    ])
    const response = await client(fetchDouble, [], { timeoutMs: 50, retry: { maxAttempts: 6 } }).post({
      path: '/x',
      body: {},
      kind: 'chat',
      validate: (body) => {
        if ((body.choices as unknown[]).length === 0)
          throw new EndpointError({ code: 'endpoint_bad_response', message: 'no choices', retryable: true })
      },
    })
    expect(response.retried).toEqual([
      'endpoint_bad_response',
      'endpoint_unreachable',
      'endpoint_bad_response',
      'endpoint_timeout',
    ])
    expect(response.attempts).toBe(5)
  })

  it('bounds concurrent requests', async () => {
    let active = 0
    let peak = 0
    const fetchDouble = (async () => {
      active++
      peak = Math.max(peak, active)
      await new Promise((resolve) => setTimeout(resolve, 5))
      active--
      return ok()
    }) as unknown as typeof fetch
    const limited = client(fetchDouble, [], { maxConcurrency: 3 })
    await Promise.all(Array.from({ length: 12 }, () => limited.post({ path: '/x', body: {}, kind: 'chat' })))
    expect(peak).toBe(3)
    expect(limited.peakConcurrency).toBe(3)
  })
})

describe('retry policy', () => {
  it('doubles up to the cap with equal jitter; Retry-After wins when longer and is capped', () => {
    const policy = { ...defaultRetryPolicy, initialDelayMs: 100, maxDelayMs: 1000 }
    expect([1, 2, 3, 4, 5].map((attempt) => backoffDelay({ policy, attempt, random: () => 1 }))).toEqual([
      100, 200, 400, 800, 1000,
    ])
    expect(backoffDelay({ policy, attempt: 1, random: () => 0 })).toBe(50)
    expect(backoffDelay({ policy, attempt: 1, random: () => 0, retryAfterSeconds: 2 })).toBe(2000)
    expect(backoffDelay({ policy, attempt: 1, random: () => 0, retryAfterSeconds: 3600 })).toBe(60_000)
    expect(parseRetryAfter('7')).toBe(7)
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10)
    expect(parseRetryAfter('soon')).toBeUndefined()
  })
})
