import { clientKeyOf } from '../../http/client-key.js'
import { HttpError } from '../../http/http-errors.js'
import { batchLimitsOf } from '../../mcp/mcp-routes.js'
import { acceptEnvSocket } from '../../ws/env-socket.js'
import type { RouteModule } from '../route-module.js'
import { type EnvRouteContext, sessionAccess } from './env-route-context.js'

/** `WS /ws`: OpenEnv's WebSocket session, one env per connection; a plain GET is a 426. */
export const envSocketRoute: RouteModule<EnvRouteContext> = (app, { context, host, prefix, tags }) => {
  app.route({
    method: 'GET',
    url: `${prefix}/ws`,
    config: sessionAccess,
    schema: { summary: 'OpenEnv WebSocket session: one env per connection.', tags, hide: true },
    handler: async () => {
      throw new HttpError({
        status: 426,
        code: 'upgrade_required',
        message: 'Connect with a WebSocket client.',
        headers: { upgrade: 'websocket' },
      })
    },
    wsHandler: (socket, request) => {
      acceptEnvSocket(socket, {
        host,
        store: context.store,
        keepalive: context.keepalive,
        shutdown: context.shutdown,
        client: clientKeyOf(request.socket.remoteAddress),
        limits: batchLimitsOf(context),
        log: request.log,
      })
    },
  })
}
