/**
 * @module server/routes: the dashboard (`web/`, static files served at `/ui/`, no CDN: Chart.js comes
 * from this package's `node_modules`), and what its pages read of an env: `GET /api/envs/{id}/rows`,
 * the dataset rows the play page offers, its policies, and the argument values it accepts under
 * several names. Files are read once at start-up from a fixed list (nothing is looked up by a request path),
 * and served with a strict Content-Security-Policy. One module per route under `dashboard/`, registered
 * from the list below.
 */
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { EnvRegistry } from '../../core/registry/env-registry.js'
import type { PolicyRegistry } from '../../core/registry/policy-registry.js'
import { packageRoot } from '../../train/training-settings.js'
import { dashboardFileRoute, dashboardIndexRoute, dashboardRedirectRoute } from './dashboard/dashboard-page-routes.js'
import { type DashboardRouteContext, loadWebFiles } from './dashboard/dashboard-route-context.js'
import { envArgumentAliasesRoute } from './dashboard/env-argument-aliases-route.js'
import { envPoliciesRoute } from './dashboard/env-policies-route.js'
import { envRowsRoute } from './dashboard/env-rows-route.js'
import { type RouteModule, registerRoutes } from './route-module.js'

const dashboardRoutes: readonly RouteModule<DashboardRouteContext>[] = [
  dashboardRedirectRoute,
  dashboardIndexRoute,
  dashboardFileRoute,
  envRowsRoute,
  envArgumentAliasesRoute,
  envPoliciesRoute,
]

export function registerDashboardRoutes(
  app: FastifyInstance,
  options: { registry: EnvRegistry; policies: PolicyRegistry; webDir?: string },
): void {
  const files = loadWebFiles(options.webDir ?? join(packageRoot, 'web'))
  registerRoutes(app, { registry: options.registry, policies: options.policies, files }, dashboardRoutes)
}
