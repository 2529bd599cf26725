import { readMetricsFile } from '../../../train/log-history.js'
import { renderTrainingPlot } from '../../../train/render-training-plot.js'
import type { RouteModule } from '../route-module.js'
import { operatorAccess, type TrainingRouteContext, trainingTags } from './training-route-context.js'

/** `GET /train/plot.png`: rendered here, and again only when the run or its last row changed. */
export const trainPlotRoute: RouteModule<TrainingRouteContext> = (app, context) => {
  app.get(
    '/train/plot.png',
    {
      config: operatorAccess,
      schema: {
        summary: 'Reward, loss and tool-call/failure frequency of the run, as a PNG rendered on the server.',
        tags: trainingTags,
      },
    },
    async (_request, reply) => {
      const run = context.supervisor.latestRun()
      const status = context.supervisor.status()
      const snapshot = run ? await readMetricsFile(run.metricsPath) : null
      const rows = snapshot?.rows ?? []
      const key = `${run?.runId}:${status.state}:${rows.length}:${JSON.stringify(rows.at(-1) ?? null)}`
      if (context.plot.cache?.key !== key) {
        const progress =
          snapshot?.globalStep === null || snapshot === null ? '' : ` | step ${snapshot.globalStep}/${snapshot.maxSteps ?? '?'}`
        const title = run
          ? `ReleaseOps GRPO | ${run.parameters.preset} ${run.runId} | ${status.state}${progress} | elapsed ${status.elapsed_seconds ?? 0}s | points ${rows.length}`
          : 'ReleaseOps GRPO | no run yet'
        context.plot.cache = { key, png: renderTrainingPlot({ rows, title }) }
      }
      reply.type('image/png').header('cache-control', 'no-store')
      return context.plot.cache.png
    },
  )
}
