import { describe, expect, it } from 'vitest'
import { isEndpointError } from './endpoint-error.js'
import { emptyStreamFold, foldEvent, readSseStream, streamBody } from './read-sse-stream.js'

function stream(text: string, splitEvery = 7): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text)
  return new ReadableStream({
    start(controller) {
      for (let start = 0; start < bytes.length; start += splitEvery) controller.enqueue(bytes.slice(start, start + splitEvery))
      controller.close()
    },
  })
}
const sse = (...chunks: (object | string)[]) =>
  chunks.map((chunk) => `data: ${typeof chunk === 'string' ? chunk : JSON.stringify(chunk)}\n\n`).join('')
const delta = (value: object, finish: string | null = null) => ({ choices: [{ index: 0, delta: value, finish_reason: finish }] })

describe('readSseStream', () => {
  it('folds chat deltas (reasoning, content, tool-call fragments, usage) into one message, across chunk boundaries', async () => {
    const text = sse(
      delta({ role: 'assistant', content: '' }),
      delta({ reasoning_content: 'Thinking ' }),
      delta({ reasoning: 'hard.' }),
      delta({ content: 'Héllo ' }),
      delta({ content: '🚀' }),
      delta({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '{"city": ' } }] }),
      delta({ tool_calls: [{ index: 1, id: 'call_b', function: { name: 'hold', arguments: '{}' } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
      delta({}, 'tool_calls'),
      { choices: [], usage: { prompt_tokens: 10, completion_tokens: 5 } },
      '[DONE]',
    )
    const result = await readSseStream({ stream: stream(text), kind: 'chat', startedAt: performance.now() })
    expect(result.body).toEqual({
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: 'Héllo 🚀',
            reasoning_content: 'Thinking hard.',
            tool_calls: [
              { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Paris"}' } },
              { id: 'call_b', type: 'function', function: { name: 'hold', arguments: '{}' } },
            ],
          },
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 5 },
    })
    expect(result.firstTokenMs).toBeGreaterThanOrEqual(0)
  })

  it('folds text-completion chunks', async () => {
    const chunk = (text: string, finish: string | null = null) => ({ choices: [{ index: 0, text, finish_reason: finish }] })
    const result = await readSseStream({
      stream: stream(sse(chunk('<tool_'), chunk('call>'), chunk('', 'length'), '[DONE]'), 3),
      kind: 'completion',
      startedAt: 0,
    })
    expect(result.body).toEqual({ choices: [{ index: 0, text: '<tool_call>', finish_reason: 'length' }] })
  })

  it('a stream without [DONE], with a garbled chunk, or with an error event is a retryable endpoint error', async () => {
    for (const [text, code] of [
      [sse(delta({ content: 'half' })), 'endpoint_truncated'],
      [sse(delta({ content: 'x' }), '{not json', '[DONE]'), 'endpoint_bad_response'],
      [sse({ error: { message: 'engine died' } }, '[DONE]'), 'endpoint_bad_response'],
    ] as const) {
      const error = await readSseStream({ stream: stream(text), kind: 'chat', startedAt: 0 }).catch((caught: unknown) => caught)
      expect(isEndpointError(error) && [error.code, error.retryable]).toEqual([code, true])
    }
  })
})

describe('foldEvent and streamBody, the steps alone', () => {
  it('marks the first token once, at the first content, and not at an empty one', () => {
    const fold = emptyStreamFold()
    let now = 5
    const elapsed = () => now
    foldEvent(fold, JSON.stringify(delta({ role: 'assistant', content: '' })), elapsed)
    expect(fold.firstTokenMs).toBeNull()
    now = 12
    foldEvent(fold, JSON.stringify(delta({ content: 'Hi' })), elapsed)
    now = 30
    foldEvent(fold, JSON.stringify(delta({ content: '!' }, 'stop')), elapsed)
    expect([fold.firstTokenMs, fold.content, fold.finishReason, fold.done]).toEqual([12, 'Hi!', 'stop', false])
    foldEvent(fold, '[DONE]', elapsed)
    expect(fold.done).toBe(true)
  })

  it('joins tool-call fragments by index and gives the body a non-streaming call would have', () => {
    const fold = emptyStreamFold()
    const elapsed = () => 0
    foldEvent(
      fold,
      JSON.stringify(delta({ tool_calls: [{ index: 0, id: 'a', function: { name: 'look', arguments: '{"x"' } }] })),
      elapsed,
    )
    foldEvent(fold, JSON.stringify(delta({ tool_calls: [{ index: 0, function: { arguments: ':1}' } }] })), elapsed)
    foldEvent(fold, JSON.stringify({ choices: [], usage: { prompt_tokens: 3 } }), elapsed)
    expect(streamBody(fold, 'chat')).toEqual({
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'a', type: 'function', function: { name: 'look', arguments: '{"x":1}' } }],
          },
          finish_reason: null,
        },
      ],
      usage: { prompt_tokens: 3 },
    })
  })

  it('folds completion text into a text choice', () => {
    const fold = emptyStreamFold()
    foldEvent(fold, JSON.stringify({ choices: [{ index: 0, text: 'ab', finish_reason: 'length' }] }), () => 1)
    expect(streamBody(fold, 'completion')).toEqual({ choices: [{ index: 0, text: 'ab', finish_reason: 'length' }] })
  })

  it('throws a coded, retryable error for a chunk that is not JSON or reports an error', () => {
    const fold = emptyStreamFold()
    for (const data of ['{"choices": [', '{"error": {"message": "boom"}}']) {
      let caught: unknown
      try {
        foldEvent(fold, data, () => 0)
      } catch (error) {
        caught = error
      }
      expect(isEndpointError(caught) && [caught.code, caught.retryable]).toEqual(['endpoint_bad_response', true])
    }
  })
})
