/**
 * @module server/routes: what the operational routes share: errors of the train layer that name their
 * status become `HttpError`s (so the one error handler answers them), the URL this server is reachable
 * at from a child process on the same machine, and the refusal used in `--workers N` mode.
 */
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'
import { UnknownNameError } from '../../core/errors/unknown-name-error.js'
import { HttpError } from '../http/http-errors.js'

/** Train-layer errors carrying `status`, and unknown names (404), as `HttpError`; anything else unchanged. */
export function asHttpError(error: unknown): unknown {
  if (error instanceof HttpError || !ReleaseOpsError.isInstance(error)) return error
  const status = error instanceof UnknownNameError ? 404 : (error as ReleaseOpsError & { status?: unknown }).status
  if (typeof status !== 'number') return error
  return new HttpError({
    status,
    code: error.code,
    message: error.message,
    ...(error.path === undefined ? {} : { path: error.path }),
    ...(error.details === undefined ? {} : { details: error.details }),
  })
}

/** Runs a handler body, converting train-layer errors on the way out. */
export async function withHttpErrors<T>(run: () => Promise<T> | T): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw asHttpError(error)
  }
}

/** `http://host:port` of this server as seen from the same machine (a wildcard bind becomes loopback). */
export function localServerUrl(app: FastifyInstance, host: string): string {
  const address = app.server.address() as AddressInfo | null
  if (!address) throw new HttpError({ status: 503, code: 'not_listening', message: 'The server is not listening yet.' })
  const reachable = host === '0.0.0.0' || host === '::' || host === '[::]' ? '127.0.0.1' : host
  const shown = reachable.includes(':') && !reachable.startsWith('[') ? `[${reachable}]` : reachable
  return `http://${shown}:${address.port}`
}

/** Training, eval jobs and pushes keep state in one process; a cluster worker refuses them. */
export function refuseInCluster(clustered: boolean): void {
  if (clustered) {
    throw new HttpError({
      status: 409,
      code: 'single_process_only',
      message: 'Training, eval jobs and Hub pushes run on a single-process server (start it without --workers).',
    })
  }
}
