import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { PolicyRegistry } from '../../../core/registry/policy-registry.js'
import type { RouteModule } from '../route-module.js'
import { type DashboardRouteContext, dashboardAccess, dashboardTags, envIdParams } from './dashboard-route-context.js'

/** An env's policies, each with its description and whether it reads hidden state. */
export function envPolicies(policies: PolicyRegistry, envId: string) {
  return {
    env_id: envId,
    policies: policies.names(envId).map((name) => {
      const policy = policies.get(envId, name)
      return { name, description: policy.description, privileged: policy.privileged === true }
    }),
  }
}

/** `GET /api/envs/:id/policies`: the baselines the play page can run (an unknown env is a 404). */
export const envPoliciesRoute: RouteModule<DashboardRouteContext> = (app, { registry, policies }) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/envs/:id/policies',
    {
      config: dashboardAccess,
      schema: {
        summary: 'Policies registered for an env (baselines; privileged ones read hidden state).',
        tags: dashboardTags,
        params: envIdParams,
      },
    },
    (request) => {
      registry.get(request.params.id)
      return envPolicies(policies, request.params.id)
    },
  )
}
