import { trainingStartSchema } from '../../../train/training-request.js'
import { operationalRoute } from '../operations-support.js'
import type { RouteModule } from '../route-module.js'
import { type OriginalRoutesOptions, originalTags, startFromAlias } from './original-route-context.js'

/** `POST /train/smoke`: `POST /train/start {preset: smoke}`. */
export const trainSmokeAlias: RouteModule<OriginalRoutesOptions> = (app, context) => {
  app.post(
    '/train/smoke',
    operationalRoute({ summary: 'Alias of POST /train/start {preset: smoke}.', tags: originalTags }),
    (_request, reply) => startFromAlias(context, trainingStartSchema.parse({ preset: 'smoke' }), reply),
  )
}
