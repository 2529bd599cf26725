/** @module client: what a remote env call can fail with, each with a stable code. */
import type { z } from 'zod'
import { InvalidInputError } from '../core/errors/invalid-input-error.js'
import { ReleaseOpsError } from '../core/errors/release-ops-error.js'

/**
 * The server answered with an error frame. `code` is the server's own code when it sent one
 * (`reset_needed`, `validation_error`, `capacity_reached`), else OpenEnv's WebSocket code lower-cased:
 * a remote's code, so any string.
 */
export class ServerError extends ReleaseOpsError<string> {
  readonly wireCode: string

  constructor(data: Record<string, unknown>) {
    const wireCode = String(data.code ?? 'EXECUTION_ERROR')
    const code = typeof data.error_code === 'string' ? data.error_code : wireCode.toLowerCase()
    super({ code, message: String(data.message ?? 'Server error'), details: data })
    this.name = 'ServerError'
    this.wireCode = wireCode
  }
}

/** The connection closed (or could not be opened) before a reply arrived. */
export class ConnectionLostError extends ReleaseOpsError {
  constructor(message: string, details?: Record<string, unknown>) {
    super({ code: 'connection_lost', message, ...(details ? { details } : {}) })
    this.name = 'ConnectionLostError'
  }
}

/** No reply within the timeout. The connection is dropped, so a late reply can never be misread. */
export class RequestTimeoutError extends ReleaseOpsError {
  constructor(timeoutMs: number, type: string) {
    super({ code: 'request_timeout', message: `No reply to "${type}" within ${timeoutMs} ms.` })
    this.name = 'RequestTimeoutError'
  }
}

/** The connection was lost mid-episode and the episode could not be rebuilt on a new one. */
export class EpisodeLostError extends ReleaseOpsError {
  constructor(message: string) {
    super({ code: 'episode_lost', message })
    this.name = 'EpisodeLostError'
  }
}

/** A reply that is not what the wire module declares (a server of another protocol, a broken proxy). */
export class MalformedReplyError extends InvalidInputError {
  constructor(type: string, issues: readonly z.core.$ZodIssue[]) {
    const listed = issues.map((issue) => ({ code: issue.code, path: issue.path.join('.'), message: issue.message }))
    super({
      code: 'malformed_reply',
      message: `The server's "${type}" reply is not what the OpenEnv protocol declares (${listed.map((issue) => `${issue.path || '(root)'}: ${issue.message}`).join('; ')}).`,
      issues: listed,
      ...(listed[0] === undefined ? {} : { path: listed[0].path }),
    })
    this.name = 'MalformedReplyError'
  }
}
