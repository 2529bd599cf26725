/**
 * @module agent: reading OpenAI-compatible response bodies: the first choice (a body without a usable one is
 * a retryable `endpoint_bad_response`, checked inside the retry loop) and the reported token usage.
 */
import type { TokenUsage } from './chat-model.js'
import type { EndpointResponse } from './endpoint-client.js'
import { EndpointError } from './endpoint-error.js'

export function choiceOf(response: EndpointResponse): Record<string, unknown> {
  return firstChoice(response.body)
}

/** The first choice of a body, or a retryable `endpoint_bad_response`. */
function firstChoice(body: Record<string, unknown>): Record<string, unknown> {
  const choices = body.choices
  const choice = Array.isArray(choices) ? choices[0] : undefined
  if (choice === null || typeof choice !== 'object') {
    const error = body.error
    // Only an API error's own message is quoted; any other object is not kept (it could be anyone's data).
    const message = (error as { message?: unknown } | null)?.message ?? (typeof error === 'string' ? error : undefined)
    throw new EndpointError({
      code: 'endpoint_bad_response',
      message: error
        ? `The endpoint returned an error body${typeof message === 'string' ? `: ${message.slice(0, 200)}` : ' (no message; not kept)'}`
        : 'The response has no choices.',
      retryable: true,
    })
  }
  return choice as Record<string, unknown>
}

export const validChat = (body: Record<string, unknown>) => {
  const message = firstChoice(body).message
  if (message === null || typeof message !== 'object')
    throw new EndpointError({ code: 'endpoint_bad_response', message: 'The choice has no message.', retryable: true })
}
export const validCompletion = (body: Record<string, unknown>) => {
  if (typeof firstChoice(body).text !== 'string')
    throw new EndpointError({ code: 'endpoint_bad_response', message: 'The completion choice has no text.', retryable: true })
}

export function endpointUsage(body: Record<string, unknown>): TokenUsage | null {
  const usage = body.usage as Record<string, unknown> | undefined
  if (!usage || typeof usage.prompt_tokens !== 'number') return null
  const completion = typeof usage.completion_tokens === 'number' ? usage.completion_tokens : 0
  return {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: completion,
    total_tokens: usage.prompt_tokens + completion,
    source: 'endpoint',
  }
}
