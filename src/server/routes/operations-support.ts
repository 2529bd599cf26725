/**
 * @module server/routes: what the operational routes share: errors of the train layer that name their
 * status become `HttpError`s (so the one error handler answers them), the URL this server is reachable
 * at from a child process on the same machine, the refusal used in `--workers N` mode, the 422 for a
 * request that fails its schema, the outbound check of a URL a request names, starting a run (a trainer
 * that failed at once is a 500), and the route options of an operational route.
 */

import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import type { z } from 'zod'
import { carriedCode } from '../../core/errors/error-code.js'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'
import { UnknownNameError } from '../../core/errors/unknown-name-error.js'
import type { Destination, OutboundPolicy } from '../../io/outbound/outbound-policy.js'
import { OutboundRefusedError } from '../../io/outbound/outbound-refused-error.js'
import { redactUrl } from '../../io/outbound/redact-url.js'
import type { TrainingStartRequest } from '../../train/training-request.js'
import type { TrainingSupervisor } from '../../train/training-supervisor.js'
import { HttpError } from '../http/http-errors.js'

/** Train-layer errors carrying `status`, and unknown names (404), as `HttpError`; anything else unchanged. */
export function asHttpError(error: unknown): unknown {
  if (HttpError.isInstance(error) || !ReleaseOpsError.isInstance(error)) return error
  const status = UnknownNameError.isInstance(error) ? 404 : (error as ReleaseOpsError & { status?: unknown }).status
  if (typeof status !== 'number') return error
  return new HttpError({
    status,
    code: carriedCode(error.code),
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

/** Parses `value` with `schema`; the first issue becomes a 422 with `code` (message `fallback` when it has none). */
export function parseOrUnprocessable<S extends z.ZodType>(
  schema: S,
  value: unknown,
  error: { code: string; fallback: string },
): z.output<S> {
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  throw new HttpError({
    status: 422,
    code: carriedCode(error.code),
    path: issue?.path.join('.') ?? '',
    message: issue?.message ?? error.fallback,
  })
}

/**
 * The URL a request names for the server to contact, checked by the outbound policy (decision 0067): a
 * refused destination is a 403 `endpoint_not_allowed`, a bad scheme or name a 422, each naming `path`.
 * Resolves to the checked destination (the request itself goes there pinned, through the outbound fetch).
 */
export async function allowedEndpoint(options: { policy: OutboundPolicy; url: string; path: string }): Promise<Destination> {
  try {
    return await options.policy.destination(options.url)
  } catch (error) {
    if (!OutboundRefusedError.isInstance(error)) throw error
    throw new HttpError({
      status: error.refusal === 'endpoint_not_allowed' ? 403 : 422,
      code: error.refusal,
      path: options.path,
      message: error.message,
      ...(error.details === undefined ? {} : { details: error.details }),
    })
  }
}

/**
 * The trainer's vLLM server URL, checked like any endpoint: http(s) only, no credentials (`trl
 * vllm-serve` has no authentication, and a URL on the trainer's command line is visible to every local
 * user), and for http pinned to the checked address (the trainer connects there, not to a second lookup).
 */
async function checkedVllmUrl(request: TrainingStartRequest, policy: OutboundPolicy): Promise<TrainingStartRequest> {
  const given = request.vllm_server_base_url
  if (given === undefined) return request
  const path = 'vllm_server_base_url'
  const { url, address } = await allowedEndpoint({ policy, url: given, path })
  if (url.username !== '' || url.password !== '') {
    throw new HttpError({
      status: 422,
      code: 'endpoint_credentials_refused',
      path,
      message: `${redactUrl(given)} carries credentials; trl vllm-serve takes none, and the trainer's command line is readable by every local user.`,
    })
  }
  if (url.protocol !== 'http:' || address === undefined) return request
  const pinned = new URL(url.href)
  pinned.hostname = address.includes(':') ? `[${address}]` : address
  return { ...request, vllm_server_base_url: pinned.href.replace(/\/$/, '') }
}

/** Starts a run (refused in a cluster); a trainer that failed at once answers 500 with its status. */
export async function startTraining(options: {
  supervisor: TrainingSupervisor
  clustered: boolean
  request: TrainingStartRequest
  /** Checks the vLLM server URL a request names. */
  outbound: OutboundPolicy
}): Promise<Awaited<ReturnType<TrainingSupervisor['start']>>> {
  refuseInCluster(options.clustered)
  const request = await checkedVllmUrl(options.request, options.outbound)
  const status = await withHttpErrors(() => options.supervisor.start(request))
  if (status.state === 'failed') {
    throw new HttpError({
      status: 500,
      code: carriedCode(status.error?.code ?? 'trainer_failed'),
      message: status.error?.message ?? 'The trainer could not be started.',
      details: { status },
    })
  }
  return status
}

/**
 * The options of an operational route: the token guard's `access` and the bearer entry OpenAPI shows,
 * around the route's own schema (summary, tags, body).
 */
export function operationalRoute<S extends { summary: string; tags: string[] }>(schema: S) {
  const { summary, tags, ...rest } = schema
  return { config: { access: 'operational' as const }, schema: { summary, tags, security: [{ bearer: [] }], ...rest } }
}
