import type { RouteModule } from '../route-module.js'
import { type OriginalRoutesOptions, originalTags } from './original-route-context.js'

/** `GET /api/get-eval-results`: the last eval job's summary, or the original's "missing" shape. */
export const getEvalResultsAlias: RouteModule<OriginalRoutesOptions> = (app, context) => {
  app.get(
    '/api/get-eval-results',
    {
      config: { access: 'operator' },
      schema: { summary: 'The last eval job’s summary (the original’s shape when missing).', tags: originalTags },
    },
    () => {
      const status = context.jobs.status()
      if (status.state !== 'succeeded' || status.summary === null) {
        return { status: 'pending_or_missing', message: 'Result file not found yet.', job: status }
      }
      return status.summary
    },
  )
}
