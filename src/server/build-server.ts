/**
 * @module server: builds the Fastify app: OpenEnv routes, the session API and MCP for every registered
 * env under `/envs/{id}`, the default env also at the root, `GET /` index, `/openapi.json` and `/docs`
 * (Swagger UI served from the package, no CDN). Nothing listens here; `startServer` does that.
 */
import fastifySwagger from '@fastify/swagger'
import fastifySwaggerUi from '@fastify/swagger-ui'
import fastifyWebsocket from '@fastify/websocket'
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify'
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import type { WebSocket } from 'ws'
import type { EnvRegistry } from '../core/registry/env-registry.js'
import { createOutboundFetch } from '../io/outbound/outbound-fetch.js'
import { OutboundPolicy } from '../io/outbound/outbound-policy.js'
import type { TrainingSettingsInput } from '../train/training-settings.js'
import { createEnvHosts } from './env-host.js'
import { answerClientError, answerFrameworkError } from './http/client-errors.js'
import { ConnectionGuard } from './http/connection-guard.js'
import { installErrorHandlers, installJsonParser } from './http/error-handler.js'
import { hostGuard } from './http/host-guard.js'
import { declaredAccessOf, tokenGuard } from './http/token-guard.js'
import { registerMcpRoutes } from './mcp/mcp-routes.js'
import { openEnvApiVersion, packageVersion } from './package-version.js'
import { recordRoutes, registerIndexRoutes } from './routes/index-route.js'
import { registerOpenEnvRoutes } from './routes/openenv-routes.js'
import { type Operations, registerOperations } from './routes/operations-routes.js'
import { registerSessionRoutes } from './routes/session-routes.js'
import type { ServerContext } from './server-context.js'
import type { ServerOptions } from './server-options.js'
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

export async function buildServer(build: BuildServerOptions): Promise<BuiltServer> {
  const { options } = build
  const workerIndex = build.workerIndex ?? 0
  // Every env the server makes is counted (GET /counters), whatever the transport.
  const usage = new EnvUsageCounters()
  const hosts = createEnvHosts({
    registry: new CountingEnvRegistry(build.registry, usage),
    defaultEnvId: options.defaultEnvId ?? build.registryDefaultEnvId,
  })
  const defaultHost = hosts.find((host) => host.isDefault)!

  const app = Fastify({
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
  const context: ServerContext = {
    options,
    hosts,
    defaultHost,
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
  context.connections.attach(app.server)
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  installJsonParser(app)
  installErrorHandlers(app, { envIds: hosts.map((host) => host.id) })
  if (build.forward) {
    // x-releaseops-worker: the worker that ran the request (kept from a forwarded reply); received-by: this one.
    app.addHook('onSend', async (_request, reply) => {
      if (!reply.hasHeader('x-releaseops-worker')) reply.header('x-releaseops-worker', String(workerIndex))
      reply.header('x-releaseops-received-by', String(workerIndex))
    })
  }

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'ReleaseOps environment server',
        description: `OpenEnv-compatible HTTP, WebSocket and MCP API (releaseops ${packageVersion}). Every env is served under /envs/{id}; the default env (${defaultHost.id}) also at the root. GET / lists every route, WebSocket ones included.`,
        version: openEnvApiVersion,
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  })
  // Swagger UI's own routes (its page and assets) are public; declared here as they come from the plugin.
  await app.register(async (docs) => {
    docs.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), access: 'public' }
    })
    await docs.register(fastifySwaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' } })
  })
  await app.register(fastifyWebsocket, {
    // Pings are answered by the keepalive (every one; `ws` drops a client with 60 pongs pending).
    options: { maxPayload: options.maxFrameBytes, perMessageDeflate: false, autoPong: false },
    errorHandler: logWebSocketError,
    // The shutdown closes every socket with 1001 server_shutdown (the plugin's own hook closes with 1005).
    preClose: async function closeWebSockets(this: FastifyInstance) {
      await context.shutdown.run()
      await new Promise<void>((resolve) => this.websocketServer.close(() => resolve()))
    },
  })
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

  const routes = recordRoutes(app)
  registerIndexRoutes(app, { context, routes })
  for (const host of hosts) {
    const prefixes = host.isDefault ? ['', host.prefix] : [host.prefix]
    for (const prefix of prefixes) {
      registerOpenEnvRoutes(app, { context, host, prefix })
      registerSessionRoutes(app, { context, host, prefix })
      registerMcpRoutes(app, { context, host, prefix })
    }
  }
  const operations = registerOperations(app, {
    context,
    registry: build.registry,
    usage,
    ...(build.training ? { training: build.training } : {}),
  })

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
  return { app, context, operations }
}

/** The operator's outbound policy (`--allow-endpoint`, `--no-loopback-endpoints`) and the fetch bound to it. */
function outboundOf(options: ServerOptions): ServerContext['outbound'] {
  const policy = OutboundPolicy.checked({ allow: options.allowEndpoints, loopback: options.loopbackEndpoints })
  return { policy, fetch: createOutboundFetch(policy) }
}

/**
 * A WebSocket's error, in one short line: a protocol error (a frame over `--max-frame`, invalid UTF-8)
 * is the client's, and `ws` has already closed with its code (1009, 1007); a stack trace per frame would
 * let a client flood the log. Other errors (a reset connection) end the socket.
 */
function logWebSocketError(this: FastifyInstance, error: Error, socket: WebSocket, request: FastifyRequest): void {
  const code = (error as { code?: string }).code ?? error.name
  if (code.startsWith('WS_ERR_')) {
    request.log.warn(`websocket ${request.routeOptions.url ?? ''}: ${error.message} (${code}); closed`)
    return
  }
  request.log.warn(`websocket ${request.routeOptions.url ?? ''}: ${error.message} (${code})`)
  socket.terminate()
}
