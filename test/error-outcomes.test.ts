/**
 * The outcome table (decision 0070): every code a layer lists has exactly one HTTP status and exit code,
 * and the table lists nothing else; the server's status and the CLI's exit follow the table by code.
 */
import { describe, expect, it } from 'vitest'
import { errorOutcomeOf, errorOutcomeTable, outcomeOfCode } from '../src/core/errors/error-outcomes.js'
import { InvalidInputError } from '../src/core/errors/invalid-input-error.js'
import { ReleaseOpsError } from '../src/core/errors/release-ops-error.js'
import { UnknownNameError } from '../src/core/errors/unknown-name-error.js'
import { HttpError, httpStatusOf, wsErrorData } from '../src/server/http/http-errors.js'
import { CapacityReachedError, UnknownSessionError } from '../src/server/session/session-errors.js'
import { TrainingStateError } from '../src/train/training-errors.js'
import { layerErrorCodes } from './support/layer-error-codes.js'

const lists = layerErrorCodes

describe('the error outcome table', () => {
  it("holds each layer's codes, and only those", () => {
    const listed = new Set(Object.values(lists).flat())
    const table = errorOutcomeTable().map(([code]) => code)
    for (const [layer, codes] of Object.entries(lists))
      expect(
        codes.filter((code) => outcomeOfCode(code) === undefined),
        layer,
      ).toEqual([])
    expect(table.filter((code) => !listed.has(code))).toEqual([])
    expect(table.length).toBe(listed.size)
  })

  it('gives exit 2 to a refusal (4xx) and 1 to a failure (5xx), but for the named refusals before a run', () => {
    const refusedBeforeRunning = ['endpoint_unreachable', 'optional_dependency_missing']
    for (const [code, { http, exit }] of errorOutcomeTable()) {
      expect(http >= 400 && http < 600, code).toBe(true)
      expect(exit, code).toBe(http < 500 || refusedBeforeRunning.includes(code) ? 2 : 1)
    }
    for (const code of refusedBeforeRunning) expect(outcomeOfCode(code)?.http, code).toBeGreaterThanOrEqual(500)
  })

  it('answers an output another run holds or made with 409 and exit 2', () => {
    for (const code of ['output_exists', 'output_locked', 'port_in_use'])
      expect(outcomeOfCode(code), code).toEqual({ http: 409, exit: 2 })
  })

  it('keeps the statuses the server answered with before it', () => {
    expect(outcomeOfCode('invalid_json')?.http).toBe(400)
    expect(outcomeOfCode('unknown_session')?.http).toBe(404)
    expect(outcomeOfCode('reset_needed')?.http).toBe(409)
    expect(outcomeOfCode('capacity_reached')?.http).toBe(429)
    expect(outcomeOfCode('too_many_sessions')?.http).toBe(429)
    expect(outcomeOfCode('invalid_reset_options')?.http).toBe(422)
    expect(outcomeOfCode('template_error')).toEqual({ http: 500, exit: 1 })
  })

  it('answers codes no layer lists by kind: a registry miss 404, an issue 422, anything else 500', () => {
    expect(errorOutcomeOf(new UnknownNameError({ kind: 'split', name: 'x', known: [] })).http).toBe(404)
    const issue = new InvalidInputError({ code: 'too_small' as never, message: 'm', issues: [] })
    expect(errorOutcomeOf(issue)).toEqual({ http: 422, exit: 2 })
    expect(errorOutcomeOf(new ReleaseOpsError({ code: 'remote_thing' as never, message: 'm' }))).toEqual({ http: 500, exit: 1 })
    expect(errorOutcomeOf(new Error('plain'))).toEqual({ http: 500, exit: 1 })
  })
})

describe('the server maps errors by code', () => {
  it('answers a status the error names, else its code’s', () => {
    expect(httpStatusOf(new HttpError({ status: 418, code: 'bad_request', message: 'm' }))).toBe(418)
    expect(httpStatusOf(new TrainingStateError({ code: 'training_running', message: 'm' }))).toBe(409)
    expect(httpStatusOf(new UnknownSessionError('s'))).toBe(404)
    expect(httpStatusOf(new ReleaseOpsError({ code: 'reset_needed', message: 'm' }))).toBe(409)
    expect(httpStatusOf(new Error('plain'))).toBe(500)
  })

  it('sends OpenEnv’s WebSocket codes by error code', () => {
    expect(wsErrorData(new CapacityReachedError({ activeSessions: 2, maxSessions: 2 }))).toEqual({
      code: 'CAPACITY_REACHED',
      message: expect.any(String),
      active_sessions: 2,
      max_sessions: 2,
    })
    expect(wsErrorData(new UnknownSessionError('s')).code).toBe('SESSION_ERROR')
    const invalid = new InvalidInputError({
      message: 'bad',
      issues: [{ code: 'invalid_type', path: 'action.tool', message: 'Required' }],
    })
    expect(wsErrorData(invalid)).toMatchObject({ code: 'VALIDATION_ERROR', error_code: 'invalid_input' })
    expect(wsErrorData(new Error('x')).code).toBe('EXECUTION_ERROR')
  })
})
