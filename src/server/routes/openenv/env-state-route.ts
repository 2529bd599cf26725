import type { RouteModule } from '../route-module.js'
import { type EnvRouteContext, sessionAccess, withFreshSession } from './env-route-context.js'

/** `GET /state`: the state of a fresh env. */
export const envStateRoute: RouteModule<EnvRouteContext> = (app, context) => {
  app.get(
    `${context.prefix}/state`,
    { config: sessionAccess, schema: { summary: 'State of a fresh env (stateless).', tags: context.tags } },
    () => withFreshSession(context, (session) => session.state()),
  )
}
