import type { RouteModule } from '../route-module.js'
import { operatorAccess, type TrainingRouteContext, trainingTags } from './training-route-context.js'

/** `GET /train/status`: the supervisor's word on the current (or last) run. */
export const trainStatusRoute: RouteModule<TrainingRouteContext> = (app, context) => {
  app.get(
    '/train/status',
    {
      config: operatorAccess,
      schema: { summary: 'State of the current (or last) run: exit code, elapsed, paths.', tags: trainingTags },
    },
    () => context.supervisor.status(),
  )
}
