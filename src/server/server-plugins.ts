/**
 * @module server: the Fastify plugins the server registers: OpenAPI with Swagger UI served from the
 * package (no CDN), and WebSockets whose pings the keepalive answers and whose close the shutdown runs.
 */
import fastifySwagger from '@fastify/swagger'
import fastifySwaggerUi from '@fastify/swagger-ui'
import fastifyWebsocket from '@fastify/websocket'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { jsonSchemaTransform } from 'fastify-type-provider-zod'
import type { WebSocket } from 'ws'
import { openEnvApiVersion, packageVersion } from './package-version.js'
import type { ServerContext } from './server-context.js'

/** `/openapi.json` and `/docs`; Swagger UI's own routes (its page and assets) are public. */
export async function registerApiDocs(app: FastifyInstance, defaultEnvId: string): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'ReleaseOps environment server',
        description: `OpenEnv-compatible HTTP, WebSocket and MCP API (releaseops ${packageVersion}). Every env is served under /envs/{id}; the default env (${defaultEnvId}) also at the root. GET / lists every route, WebSocket ones included.`,
        version: openEnvApiVersion,
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  })
  // Declared here as they come from the plugin.
  await app.register(async (docs) => {
    docs.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), access: 'public' }
    })
    await docs.register(fastifySwaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' } })
  })
}

export async function registerWebSockets(app: FastifyInstance, context: ServerContext): Promise<void> {
  await app.register(fastifyWebsocket, {
    // Pings are answered by the keepalive (every one; `ws` drops a client with 60 pongs pending).
    options: { maxPayload: context.options.maxFrameBytes, perMessageDeflate: false, autoPong: false },
    errorHandler: logWebSocketError,
    // The shutdown closes every socket with 1001 server_shutdown (the plugin's own hook closes with 1005).
    preClose: async function closeWebSockets(this: FastifyInstance) {
      await context.shutdown.run()
      await new Promise<void>((resolve) => this.websocketServer.close(() => resolve()))
    },
  })
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
