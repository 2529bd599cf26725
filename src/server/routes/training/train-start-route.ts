import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { trainingStartSchema } from '../../../train/training-request.js'
import { operationalRoute, startTraining } from '../operations-support.js'
import type { RouteModule } from '../route-module.js'
import { type TrainingRouteContext, trainingTags } from './training-route-context.js'

/** `POST /train/start`: a preset plus validated overrides; one run at a time. */
export const trainStartRoute: RouteModule<TrainingRouteContext> = (app, context) => {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/train/start',
    operationalRoute({
      summary: 'Start a GRPO run (preset smoke or pilot, plus overrides). One run at a time: a second start is a 409.',
      tags: trainingTags,
      body: trainingStartSchema.optional(),
    }),
    async (request, reply) => {
      const status = await startTraining({
        outbound: context.outbound,
        supervisor: context.supervisor,
        clustered: context.clustered,
        request: request.body ?? trainingStartSchema.parse({}),
      })
      return reply
        .code(202)
        .send({ started: true, message: 'Training started. Follow /train/status, /train/live or /train/logs.', ...status })
    },
  )
}
