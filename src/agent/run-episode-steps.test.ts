/** The agent loop's pure steps: how a failed model call ends an episode, and which calls of a turn run. */
import { describe, expect, it } from 'vitest'
import type { AgentTurn } from './agent.js'
import { EndpointError } from './endpoint-error.js'
import { callsToRun, endOfFailedTurn } from './run-episode.js'

const turnWith = (count: number): AgentTurn => ({
  message: { role: 'assistant', content: '' },
  toolCalls: Array.from({ length: count }, (_, index) => ({ name: `tool_${index}`, arguments: {} })),
  issues: [],
  repairs: 0,
  finishReason: 'stop',
  usage: null,
  latencyMs: 0,
  firstTokenMs: null,
  attempts: 1,
  retried: [],
})

describe('endOfFailedTurn', () => {
  it('ends at the context limit with no fault', () => {
    const error = new EndpointError({ code: 'context_length_exceeded', message: 'too long' })
    expect(endOfFailedTurn(error)).toEqual({ end: 'context_length' })
  })

  it('ends an infrastructure failure as infra_error with its code, message and attempts', () => {
    const error = new EndpointError({ code: 'endpoint_timeout', message: 'slow', retryable: true, attempts: 3 })
    expect(endOfFailedTurn(error)).toEqual({
      end: 'infra_error',
      fault: { fault: 'infrastructure', code: 'endpoint_timeout', message: 'slow', attempts: 3 },
    })
  })

  it('throws a fatal endpoint error and anything that is not an endpoint error', () => {
    const fatal = new EndpointError({ code: 'endpoint_unauthorized', message: 'bad key', fatal: true })
    expect(() => endOfFailedTurn(fatal)).toThrow(fatal)
    const other = new TypeError('bug')
    expect(() => endOfFailedTurn(other)).toThrow(other)
  })
})

describe('callsToRun', () => {
  it('runs every call without a limit, and the first ones with one', () => {
    expect(callsToRun(turnWith(3), undefined).map((call) => call.name)).toEqual(['tool_0', 'tool_1', 'tool_2'])
    expect(callsToRun(turnWith(3), 2).map((call) => call.name)).toEqual(['tool_0', 'tool_1'])
    expect(callsToRun(turnWith(3), 0)).toEqual([])
  })
})
