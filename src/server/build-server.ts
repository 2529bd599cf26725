/**
 * @module server: builds the Fastify app: OpenEnv routes, the session API and MCP for every registered
 * env under `/envs/{id}`, the default env also at the root, `GET /` index, `/openapi.json` and `/docs`
 * (Swagger UI served from the package, no CDN). Nothing listens here; `startServer` does that.
 */
import Fastify, { type FastifyInstance } from 'fastify'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import type { EnvRegistry } from '../core/registry/env-registry.js'
import { createOutboundFetch } from '../io/outbound/outbound-fetch.js'
import { OutboundPolicy } from '../io/outbound/outbound-policy.js'
import type { TrainingSettingsInput } from '../train/training-settings.js'
import { createEnvHosts, type EnvHost } from './env-host.js'
import { answerClientError, answerFrameworkError } from './http/client-errors.js'
import { ConnectionGuard } from './http/connection-guard.js'
import { installErrorHandlers, installJsonParser } from './http/error-handler.js'
import { hostGuard } from './http/host-guard.js'
import { declaredAccessOf, tokenGuard } from './http/token-guard.js'
import { registerMcpRoutes } from './mcp/mcp-routes.js'
import { recordRoutes, registerIndexRoutes } from './routes/index-route.js'
import type { EnvRouteOptions } from './routes/openenv/env-route-context.js'
import { registerOpenEnvRoutes } from './routes/openenv-routes.js'
import { type Operations, registerOperations } from './routes/operations-routes.js'
import { type RouteModule, registerRoutes } from './routes/route-module.js'
import { registerSessionRoutes } from './routes/session-routes.js'
import type { ServerContext } from './server-context.js'
import type { ServerOptions } from './server-options.js'
import { registerApiDocs, registerWebSockets } from './server-plugins.js'
import { SessionStore } from './session/session-store.js'
import { ServerShutdown } from './shutdown/server-shutdown.js'
import { CountingEnvRegistry, EnvUsageCounters } from './usage/env-usage-counters.js'
import { Keepalive } from './ws/keepalive.js'

export interface BuildServerOptions {
  options: ServerOptions
  registry: EnvRegistry
  /** The registry's default env id, used when `options.defaultEnvId` is absent. */
  registryDefaultEnvId: string
  workerIndex?: number
  forward?: ServerContext['forward']
  /** Outputs root, trainer and Hub settings of the operational routes (defaults from the environment). */
  training?: TrainingSettingsInput | undefined
}

export interface BuiltServer {
  app: FastifyInstance
  context: ServerContext
  /** Training supervisor, eval jobs and their settings. */
  operations: Operations
}

/** The app, with connection timeouts and coded answers to errors before any route. */
function createApp(options: ServerOptions): FastifyInstance {
  return Fastify({
    logger: options.logLevel === 'silent' ? false : { level: options.logLevel },
    bodyLimit: options.bodyLimitBytes,
    forceCloseConnections: true,
    return503OnClosing: true,
    keepAliveTimeout: options.idleTimeoutS * 1000,
    // Errors before any route (parser, router) get the coded body too; a missing Host is our 400, not Node's bare one.
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
    http: { requireHostHeader: false },
  })
}

/** What every route reads: the env hosts, the session store, keepalive, connection guard, shutdown, outbound policy. */
function createServerContext(
  build: BuildServerOptions,
  app: FastifyInstance,
  hosts: EnvHost[],
  workerIndex: number,
): ServerContext {
  const { options } = build
  return {
    options,
    hosts,
    defaultHost: hosts.find((host) => host.isDefault)!,
    store: new SessionStore({
      maxSessions: options.maxSessions,
      maxSessionsPerClient: options.maxSessionsPerClient,
      sessionTimeoutMs: options.sessionTimeoutS * 1000,
      idPrefix: build.forward ? `w${workerIndex}.` : '',
    }),
    keepalive: new Keepalive({
      intervalMs: options.pingIntervalS * 1000,
      timeoutMs: options.pingTimeoutS * 1000,
      maxBufferedBytes: options.maxBufferedBytes,
      log: app.log,
    }),
    connections: new ConnectionGuard({
      headerTimeoutMs: options.headerTimeoutS * 1000,
      bodyTimeoutMs: options.bodyTimeoutS * 1000,
      idleTimeoutMs: options.idleTimeoutS * 1000,
      maxConnectionsPerClient: options.maxConnectionsPerClient,
    }),
    shutdown: new ServerShutdown({ graceMs: options.shutdownGraceS * 1000, log: app.log }),
    outbound: outboundOf(options),
    workerIndex,
    ...(build.forward ? { forward: build.forward } : {}),
  }
}

/** Zod validation and serialisation, the JSON parser, coded errors, and (in a cluster) the worker headers. */
function installHttp(app: FastifyInstance, context: ServerContext): void {
  context.connections.attach(app.server)
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  installJsonParser(app)
  installErrorHandlers(app, { envIds: context.hosts.map((host) => host.id) })
  if (context.forward) {
    const worker = String(context.workerIndex)
    // x-releaseops-worker: the worker that ran the request (kept from a forwarded reply); received-by: this one.
    app.addHook('onSend', async (_request, reply) => {
      if (!reply.hasHeader('x-releaseops-worker')) reply.header('x-releaseops-worker', worker)
      reply.header('x-releaseops-received-by', worker)
    })
  }
}

/** The request guards, in order: connection share, in-flight tracking, Host/Origin, token; and every route's declared access. */
function installGuards(app: FastifyInstance, context: ServerContext): void {
  const { options } = context
  // After the WebSocket plugin's own hook, so a refused upgrade's socket is still destroyed after the reply.
  app.addHook('onRequest', context.connections.refuseOverShare)
  // In-flight HTTP requests the shutdown waits for (an upgrade's reply is the WebSocket's, drained apart).
  app.addHook('onRequest', async (request, reply) => {
    if (request.headers.upgrade === undefined) context.shutdown.trackReply(reply.raw)
  })
  app.addHook('onRequest', hostGuard({ allowedHosts: options.allowedHosts, allowedOrigins: options.allowedOrigins }))
  app.addHook('onRequest', tokenGuard({ token: options.token, operatorToken: options.operatorToken }))
  // Access follows the handler: every route declares its level; one that does not is refused here (decision 0047).
  app.addHook('onRoute', (route) => {
    declaredAccessOf(route)
  })
}

/** The route groups every env gets under each of its prefixes. */
const envRouteGroups: readonly RouteModule<EnvRouteOptions>[] = [registerOpenEnvRoutes, registerSessionRoutes, registerMcpRoutes]

/** Each env's groups under `/envs/{id}`, the default env's also at the root. */
function registerEnvRoutes(app: FastifyInstance, context: ServerContext): void {
  for (const host of context.hosts) {
    const prefixes = host.isDefault ? ['', host.prefix] : [host.prefix]
    for (const prefix of prefixes) registerRoutes(app, { context, host, prefix }, envRouteGroups)
  }
}

/** The session reaper and keepalive run while the app does; closing ends every session and connection. */
function installLifecycle(app: FastifyInstance, context: ServerContext): void {
  app.addHook('onReady', async () => {
    context.store.startReaper()
    context.keepalive.start()
  })
  app.addHook('preClose', async () => {
    context.store.stopReaper()
    context.keepalive.stop()
    context.store.closeAll('server_shutdown')
  })
  app.addHook('onClose', async () => context.connections.stop())
}

export async function buildServer(build: BuildServerOptions): Promise<BuiltServer> {
  const { options } = build
  // Every env the server makes is counted (GET /counters), whatever the transport.
  const usage = new EnvUsageCounters()
  const hosts = createEnvHosts({
    registry: new CountingEnvRegistry(build.registry, usage),
    defaultEnvId: options.defaultEnvId ?? build.registryDefaultEnvId,
  })
  const app = createApp(options)
  const context = createServerContext(build, app, hosts, build.workerIndex ?? 0)
  installHttp(app, context)
  await registerApiDocs(app, context.defaultHost.id)
  await registerWebSockets(app, context)
  installGuards(app, context)
  registerIndexRoutes(app, { context, routes: recordRoutes(app) })
  registerEnvRoutes(app, context)
  const operations = registerOperations(app, {
    context,
    registry: build.registry,
    usage,
    ...(build.training ? { training: build.training } : {}),
  })
  installLifecycle(app, context)
  return { app, context, operations }
}

/** The operator's outbound policy (`--allow-endpoint`, `--no-loopback-endpoints`) and the fetch bound to it. */
function outboundOf(options: ServerOptions): ServerContext['outbound'] {
  const policy = OutboundPolicy.checked({ allow: options.allowEndpoints, loopback: options.loopbackEndpoints })
  return { policy, fetch: createOutboundFetch(policy) }
}
