import { operationalRoute, refuseInCluster, withHttpErrors } from '../operations-support.js'
import type { RouteModule } from '../route-module.js'
import { type TrainingRouteContext, trainingTags } from './training-route-context.js'

/** `POST /train/stop`: stops the trainer and its process group; answers once it has exited. */
export const trainStopRoute: RouteModule<TrainingRouteContext> = (app, context) => {
  app.post(
    '/train/stop',
    operationalRoute({
      summary: 'Stop the running trainer and its whole process group; answers once it has exited.',
      tags: trainingTags,
    }),
    async () => {
      refuseInCluster(context.clustered)
      return withHttpErrors(() => context.supervisor.stop())
    },
  )
}
