/**
 * @module server/routes: one route per module (decision 0070). A route module registers its route on
 * the app with the context its group builds; a group registers its modules from a list, so adding a
 * route is one file and one list entry, and each route can be mounted alone in a test.
 */
import type { FastifyInstance } from 'fastify'

export type RouteModule<Context> = (app: FastifyInstance, context: Context) => void

/** Registers each route of `routes`, in order, with `context`. */
export function registerRoutes<Context>(app: FastifyInstance, context: Context, routes: readonly RouteModule<Context>[]): void {
  for (const route of routes) route(app, context)
}
