/**
 * @module server/routes: the original project's HTTP session API, fixed: `POST /sessions` (reset kwargs →
 * `env_id`, observation), `POST /sessions/{id}/step` `{tool, arguments}`, `POST /sessions/{id}/reset`,
 * `GET /sessions/{id}/state`, `DELETE /sessions/{id}`. An invalid action is a 200 whose observation holds
 * the error and whose `reward` shows the penalty (the original answered a bare 400 and hid it).
 * In a cluster, a request for a session another worker owns is forwarded there. One module per route
 * under `sessions/`, registered from the list below.
 */
import type { FastifyInstance } from 'fastify'
import { type RouteModule, registerRoutes } from './route-module.js'
import { sessionCloseRoute } from './sessions/session-close-route.js'
import { sessionCreateRoute } from './sessions/session-create-route.js'
import { sessionResetRoute } from './sessions/session-reset-route.js'
import { type SessionRouteContext, type SessionRouteOptions, sessionRouteContext } from './sessions/session-route-context.js'
import { sessionStateRoute } from './sessions/session-state-route.js'
import { sessionStepRoute } from './sessions/session-step-route.js'

const sessionRoutes: readonly RouteModule<SessionRouteContext>[] = [
  sessionCreateRoute,
  sessionStepRoute,
  sessionResetRoute,
  sessionStateRoute,
  sessionCloseRoute,
]

export function registerSessionRoutes(app: FastifyInstance, options: SessionRouteOptions): void {
  registerRoutes(app, sessionRouteContext(options), sessionRoutes)
}
