import type { RouteModule } from '../route-module.js'
import type { EnvRouteContext } from './env-route-context.js'

/** `GET /schema`: JSON Schemas of action, observation and state. */
export const envSchemaRoute: RouteModule<EnvRouteContext> = (app, context) => {
  app.get(
    `${context.prefix}/schema`,
    { config: { access: 'public' }, schema: { summary: 'JSON Schemas of action, observation and state.', tags: context.tags } },
    () => context.host.schemas(),
  )
}
