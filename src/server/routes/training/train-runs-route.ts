import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { listRuns } from '../../../train/training-runs.js'
import type { RouteModule } from '../route-module.js'
import { operatorAccess, type TrainingRouteContext, trainingTags } from './training-route-context.js'

/** `GET /train/runs`: every run under outputs/runs, newest first. */
export const trainRunsRoute: RouteModule<TrainingRouteContext> = (app, context) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/train/runs',
    {
      config: operatorAccess,
      schema: {
        summary: 'Runs under outputs/runs, newest first: state, reward curve and summary, learning verdict when probed.',
        tags: trainingTags,
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) }),
      },
    },
    async (request) => {
      const runs = await listRuns(context.outputsRoot, request.query.limit)
      // The live run's status file may lag its supervisor by a write: the supervisor's word wins.
      const live = context.supervisor.status()
      return {
        runs: runs.map((run) =>
          run.run_id === live.run_id
            ? { ...run, state: live.state, elapsed_seconds: live.elapsed_seconds, error: live.error }
            : run,
        ),
      }
    },
  )
}
