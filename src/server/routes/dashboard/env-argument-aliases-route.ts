import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { RouteModule } from '../route-module.js'
import { type DashboardRouteContext, dashboardAccess, dashboardTags, envIdParams } from './dashboard-route-context.js'

/** `GET /api/envs/:id/argument-aliases`: the argument values an env accepts under several names. */
export const envArgumentAliasesRoute: RouteModule<DashboardRouteContext> = (app, { registry }) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/envs/:id/argument-aliases',
    {
      config: dashboardAccess,
      schema: {
        summary:
          'Tool argument values an env accepts under several names, each with its canonical name (rule_id: S1 → no_p1_open).',
        tags: dashboardTags,
        params: envIdParams,
      },
    },
    (request) => ({
      env_id: request.params.id,
      arguments: registry.get(request.params.id).argumentAliases ?? {},
    }),
  )
}
