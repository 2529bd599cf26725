/**
 * @module server: a listen failure as a coded error with what to do about it (issue 28 item 11), so
 * `releaseops serve` prints one line, not a stack trace.
 */
import type { ErrorCode } from '../core/errors/error-code.js'
import { ReleaseOpsError } from '../core/errors/release-ops-error.js'

class ListenError extends ReleaseOpsError {
  constructor(options: { code: ErrorCode; message: string; host: string; port: number; cause: unknown }) {
    super({ ...options, details: { host: options.host, port: options.port } })
    this.name = 'ListenError'
  }
}

/** The coded error for a failed `listen`; other errors come back unchanged. */
export function listenErrorOf(error: unknown, where: { host: string; port: number }): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  const { host, port } = where
  const at = `${host}:${port}`
  const hint = 'choose another with --port N (or the PORT environment variable; --port 0 picks a free one)'
  if (code === 'EADDRINUSE') {
    return new ListenError({
      code: 'port_in_use',
      message: `Port ${port} on ${host} is in use; ${hint}.`,
      host,
      port,
      cause: error,
    })
  }
  if (code === 'EACCES') {
    return new ListenError({
      code: 'port_not_permitted',
      message: `Not permitted to listen on ${at} (ports below 1024 need privileges); ${hint}.`,
      host,
      port,
      cause: error,
    })
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new ListenError({
      code: 'host_not_available',
      message: `Cannot listen on ${at}: ${host} is not an address of this machine; choose one with --host (or HOST).`,
      host,
      port,
      cause: error,
    })
  }
  return error
}
