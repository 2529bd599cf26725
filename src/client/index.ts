/** @module client: TypeScript client for a releaseops (OpenEnv-compatible) env server. */
export {
  ConnectionLostError,
  EpisodeLostError,
  MalformedReplyError,
  RequestTimeoutError,
  ServerError,
} from './client-errors.js'
export { fetchEnvSpec, specFromMetadata } from './fetch-env-spec.js'
export { type ConnectEnvOptions, connectEnv, WebSocketEnv } from './websocket-env.js'
export { WsConnection, type WsConnectionOptions, type WsReply } from './ws-connection.js'
