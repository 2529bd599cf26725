import { readMetricsFile, summarizeLogHistory } from '../../../train/log-history.js'
import type { RouteModule } from '../route-module.js'
import { operatorAccess, type TrainingRouteContext, trainingTags } from './training-route-context.js'

/** `GET /train/summary`: the run's status and the summary of its log history. */
export const trainSummaryRoute: RouteModule<TrainingRouteContext> = (app, context) => {
  app.get(
    '/train/summary',
    {
      config: operatorAccess,
      schema: {
        summary: 'Reward first/last/delta/max, tool-call and failure frequencies, last loss, best checkpoint.',
        tags: trainingTags,
      },
    },
    async () => {
      const run = context.supervisor.latestRun()
      const snapshot = run ? await readMetricsFile(run.metricsPath) : null
      return { status: context.supervisor.status(), summary: snapshot ? summarizeLogHistory(snapshot) : null }
    },
  )
}
