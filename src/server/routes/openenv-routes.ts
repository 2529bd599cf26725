/**
 * @module server/routes: OpenEnv's HTTP routes for one env, as OpenEnv's server serves them (docs/wire-reference.md §1):
 * stateless `POST /reset`, `POST /step`, `GET /state` (a fresh env per request, closed after), plus
 * `GET /schema`, `GET /metadata`, `GET /health` and the `WS /ws` session endpoint. One module per route
 * under `openenv/`, registered from the list below.
 */
import type { FastifyInstance } from 'fastify'
import { envHealthRoute } from './openenv/env-health-route.js'
import { envMetadataRoute } from './openenv/env-metadata-route.js'
import { envResetRoute } from './openenv/env-reset-route.js'
import { type EnvRouteContext, type EnvRouteOptions, envRouteContext } from './openenv/env-route-context.js'
import { envSchemaRoute } from './openenv/env-schema-route.js'
import { envSocketRoute } from './openenv/env-socket-route.js'
import { envStateRoute } from './openenv/env-state-route.js'
import { envStepRoute } from './openenv/env-step-route.js'
import { type RouteModule, registerRoutes } from './route-module.js'

const openEnvRoutes: readonly RouteModule<EnvRouteContext>[] = [
  envResetRoute,
  envStepRoute,
  envStateRoute,
  envSchemaRoute,
  envMetadataRoute,
  envHealthRoute,
  envSocketRoute,
]

export function registerOpenEnvRoutes(app: FastifyInstance, options: EnvRouteOptions): void {
  registerRoutes(app, envRouteContext(options), openEnvRoutes)
}
