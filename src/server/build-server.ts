/**
 * @module server: builds the Fastify app: OpenEnv routes, the session API and MCP for every registered
 * env under `/envs/{id}`, the default env also at the root, `GET /` index, `/openapi.json` and `/docs`
 * (Swagger UI served from the package, no CDN). Nothing listens here; `startServer` does that.
 */
import fastifySwagger from '@fastify/swagger'
import fastifySwaggerUi from '@fastify/swagger-ui'
import fastifyWebsocket from '@fastify/websocket'
import Fastify, { type FastifyInstance } from 'fastify'
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import type { EnvRegistry } from '../core/registry/env-registry.js'
import type { TrainingSettingsInput } from '../train/training-settings.js'
import { createEnvHosts } from './env-host.js'
import { answerClientError, answerFrameworkError } from './http/client-errors.js'
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
  const context: ServerContext = {
    options,
    hosts,
    defaultHost,
    store: new SessionStore({
      maxSessions: options.maxSessions,
      sessionTimeoutMs: options.sessionTimeoutS * 1000,
      idPrefix: build.forward ? `w${workerIndex}.` : '',
    }),
    keepalive: new Keepalive({ intervalMs: options.pingIntervalS * 1000, timeoutMs: options.pingTimeoutS * 1000 }),
    workerIndex,
    ...(build.forward ? { forward: build.forward } : {}),
  }

  const app = Fastify({
    logger: options.logLevel === 'silent' ? false : { level: options.logLevel },
    bodyLimit: options.bodyLimitBytes,
    forceCloseConnections: true,
    return503OnClosing: true,
    // Errors before any route (parser, router) get the coded body too; a missing Host is our 400, not Node's bare one.
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
    http: { requireHostHeader: false },
  })
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
  await app.register(fastifyWebsocket, { options: { maxPayload: options.maxFrameBytes, perMessageDeflate: false } })
  // After the WebSocket plugin's own hook, so a refused upgrade's socket is still destroyed after the reply.
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
  return { app, context, operations }
}
