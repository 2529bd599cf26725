import type { RouteModule } from '../route-module.js'
import type { EnvRouteContext } from './env-route-context.js'

/** `GET /metadata`: the env's name, description, version, tools and limits. */
export const envMetadataRoute: RouteModule<EnvRouteContext> = (app, context) => {
  app.get(
    `${context.prefix}/metadata`,
    {
      config: { access: 'public' },
      schema: { summary: 'Env metadata: name, description, version, tools, limits.', tags: context.tags },
    },
    () => context.host.metadata(),
  )
}
