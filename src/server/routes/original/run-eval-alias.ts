import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { evalJobRequestSchema } from '../../../eval/eval-job.js'
import { HttpError } from '../../http/http-errors.js'
import {
  allowedEndpoint,
  operationalRoute,
  parseOrUnprocessable,
  refuseInCluster,
  withHttpErrors,
} from '../operations-support.js'
import type { RouteModule } from '../route-module.js'
import { type OriginalRoutesOptions, originalTags, queryNumber } from './original-route-context.js'

const runEvalQuery = z.strictObject({
  limit: queryNumber.optional(),
  model_id: z.string().optional(),
  base_url: z.string().optional(),
  subfolder: z.string().optional().describe('Accepted for compatibility: the endpoint serves the checkpoint.'),
})

/** `POST /api/run-eval?model_id&limit`: `POST /api/eval` (limit → max_rows; a model needs its endpoint). */
export const runEvalAlias: RouteModule<OriginalRoutesOptions> = (app, context) => {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/run-eval',
    operationalRoute({
      summary:
        'Alias of POST /api/eval: limit → max_rows; model_id needs base_url (an OpenAI-compatible endpoint serving it, e.g. vLLM).',
      tags: originalTags,
      querystring: runEvalQuery,
    }),
    (request, reply) =>
      withHttpErrors(async () => {
        refuseInCluster(context.clustered)
        const parsed = evalRequestFromQuery(request.query)
        if (parsed.model) await allowedEndpoint({ policy: context.outbound, url: parsed.model.base_url, path: 'base_url' })
        const status = context.jobs.start(parsed)
        return reply.code(202).send({ message: 'Evaluation started in background. Poll /api/get-eval-results.', ...status })
      }),
  )
}

/** The eval job request the original's query asks for; a model without an endpoint is a 422. */
function evalRequestFromQuery(query: z.output<typeof runEvalQuery>) {
  const { limit, model_id, base_url } = query
  if (model_id !== undefined && base_url === undefined) {
    throw new HttpError({
      status: 422,
      code: 'model_endpoint_required',
      path: 'base_url',
      message: `This server does not download and run ${model_id} itself: serve it behind an OpenAI-compatible endpoint (vllm serve ${model_id}) and pass base_url=http://host:port/v1.`,
    })
  }
  const body = {
    ...(limit === undefined ? {} : { max_rows: limit }),
    ...(model_id === undefined ? {} : { model: { name: model_id, base_url } }),
  }
  return parseOrUnprocessable(evalJobRequestSchema, body, { code: 'invalid_query', fallback: '' })
}
