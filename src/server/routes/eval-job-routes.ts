/**
 * @module server/routes: `/api/eval`: an evaluation (baseline policies, or a model behind an
 * OpenAI-compatible endpoint) as a background job with its own status and result, one at a time.
 * Starting and cancelling are operational (token); reading the status is not.
 */
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { type EvalJobRunner, evalJobRequestSchema } from '../../eval/eval-job.js'
import type { OutboundPolicy } from '../../io/outbound/outbound-policy.js'
import { allowedEndpoint, operationalRoute, refuseInCluster, withHttpErrors } from './operations-support.js'

const tags = ['eval jobs']

export function registerEvalJobRoutes(
  app: FastifyInstance,
  options: { jobs: EvalJobRunner; clustered: boolean; outbound: OutboundPolicy },
): void {
  const typed = app.withTypeProvider<ZodTypeProvider>()
  const { jobs } = options
  typed.post(
    '/api/eval',
    operationalRoute({
      summary: 'Start an eval job over a dataset split: policies, or a model endpoint (no API key is sent).',
      tags,
      body: evalJobRequestSchema.optional(),
    }),
    (request, reply) =>
      withHttpErrors(async () => {
        refuseInCluster(options.clustered)
        const body = request.body ?? evalJobRequestSchema.parse({})
        // The endpoint a request names passes the outbound policy before anything runs (decision 0067).
        if (body.model) await allowedEndpoint({ policy: options.outbound, url: body.model.base_url, path: 'model.base_url' })
        const status = jobs.start(body)
        return reply.code(202).send(status)
      }),
  )
  typed.get(
    '/api/eval',
    {
      config: { access: 'operator' },
      schema: { summary: 'The current (or last) eval job: state, progress, summary when done.', tags },
    },
    () => jobs.status(),
  )
  typed.post('/api/eval/cancel', operationalRoute({ summary: 'Cancel the running eval job.', tags }), () =>
    withHttpErrors(() => {
      refuseInCluster(options.clustered)
      return jobs.cancel()
    }),
  )
}
