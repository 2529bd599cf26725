/** @module server: the OpenEnv-compatible env server (HTTP, WebSocket, MCP). */
export { type BuildServerOptions, type BuiltServer, buildServer } from './build-server.js'
export { EnvHost } from './env-host.js'
export { checkAccess, type RouteAccess, tokenGuard } from './http/token-guard.js'
export { dispatchJsonRpc, type JsonRpcResponse, type McpContext } from './mcp/mcp-dispatcher.js'
export { serveMcpStdio } from './mcp/mcp-stdio.js'
export type { ServerContext } from './server-context.js'
export {
  isLoopbackHost,
  parseServerOptions,
  type ServerOptions,
  type ServerOptionsInput,
  serverOptionsSchema,
} from './server-options.js'
export { CapacityReachedError, UnknownSessionError } from './session/session-errors.js'
export { SessionStore } from './session/session-store.js'
export { listeningLine, type RunningServer, type StartServerOptions, startServer } from './start-server.js'
