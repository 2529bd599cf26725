/**
 * @module server: builds the app and listens. Used by `releaseops serve` (one process, or each worker of
 * a `--workers N` cluster) and by tests, which listen on an ephemeral loopback port.
 */
import type { AddressInfo } from 'node:net'
import type { EnvRegistry } from '../core/registry/env-registry.js'
import { type BuildServerOptions, type BuiltServer, buildServer } from './build-server.js'
import { listenErrorOf } from './listen-error.js'
import type { ServerContext } from './server-context.js'
import type { ServerOptions } from './server-options.js'

export interface StartServerOptions {
  options: ServerOptions
  registry: EnvRegistry
  registryDefaultEnvId: string
  workerIndex?: number
  forward?: ServerContext['forward']
  training?: BuildServerOptions['training'] | undefined
}

export interface RunningServer extends BuiltServer {
  /** `http://host:port` with the port actually bound. */
  url: string
  port: number
  close(): Promise<void>
}

export async function startServer(start: StartServerOptions): Promise<RunningServer> {
  const built = await buildServer(start)
  try {
    await built.app.listen({ host: start.options.host, port: start.options.port })
  } catch (error) {
    await built.app.close()
    throw listenErrorOf(error, start.options)
  }
  const port = (built.app.server.address() as AddressInfo).port
  const host = start.options.host.includes(':') ? `[${start.options.host}]` : start.options.host
  return { ...built, port, url: `http://${host}:${port}`, close: () => built.app.close() }
}

/** The one line `releaseops serve` prints when it is ready (tests and scripts read the port from it). */
export function listeningLine(options: { url: string; context: ServerContext; workers: number }): string {
  const envs = options.context.hosts.map((host) => host.id).join(', ')
  const workers = options.workers > 1 ? `, ${options.workers} workers` : ''
  return `releaseops serve: listening on ${options.url} (default env ${options.context.defaultHost.id}; envs ${envs}${workers})\nreleaseops serve: dashboard ${options.url}/ui/\n`
}
