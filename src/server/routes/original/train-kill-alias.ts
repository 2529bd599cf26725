import { operationalRoute, refuseInCluster, withHttpErrors } from '../operations-support.js'
import type { RouteModule } from '../route-module.js'
import { type OriginalRoutesOptions, originalTags } from './original-route-context.js'

/** `POST /train/kill`: `POST /train/stop`. */
export const trainKillAlias: RouteModule<OriginalRoutesOptions> = (app, context) => {
  app.post('/train/kill', operationalRoute({ summary: 'Alias of POST /train/stop.', tags: originalTags }), () => {
    refuseInCluster(context.clustered)
    return withHttpErrors(() => context.supervisor.stop())
  })
}
