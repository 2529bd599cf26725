import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { type TrainingStartRequest, trainingStartSchema } from '../../../train/training-request.js'
import { operationalRoute, parseOrUnprocessable } from '../operations-support.js'
import type { RouteModule } from '../route-module.js'
import { type OriginalRoutesOptions, originalTags, queryBoolean, queryNumber, startFromAlias } from './original-route-context.js'

/** `/train/pilot`'s query: the original's names (URL-encoded), mapped onto the start schema. */
export const pilotQuerySchema = z.strictObject({
  model_name: z.string().optional(),
  max_steps: queryNumber.optional(),
  num_generations: queryNumber.optional(),
  gradient_accumulation_steps: queryNumber.optional(),
  max_completion_length: queryNumber.optional(),
  learning_rate: queryNumber.optional(),
  logging_steps: queryNumber.optional(),
  bf16: queryBoolean.optional(),
  hub_model_repo: z.string().optional().describe('Push the best checkpoint here when the run succeeds.'),
  best_loss_dir: z.string().optional().describe('Accepted for compatibility: best_by_loss/ is always kept in the run folder.'),
  hub_upload_include: z.string().optional().describe('Accepted for compatibility: the whole best checkpoint is pushed.'),
})

/** Builds a start request from the original's query (validated by the start schema itself: same errors, same limits). */
export function startRequestFromQuery(preset: 'smoke' | 'pilot', query: z.output<typeof pilotQuerySchema>): TrainingStartRequest {
  const { hub_model_repo, best_loss_dir: _kept, hub_upload_include: _whole, ...rest } = query
  const body: Record<string, unknown> = { preset }
  for (const [key, value] of Object.entries(rest)) if (value !== undefined) body[key] = value
  if (hub_model_repo !== undefined) body.hub_repo = hub_model_repo
  return parseOrUnprocessable(trainingStartSchema, body, { code: 'invalid_query', fallback: 'Invalid query.' })
}

/** `POST /train/pilot?model_name&max_steps…`: `POST /train/start {preset: pilot, …}`. */
export const trainPilotAlias: RouteModule<OriginalRoutesOptions> = (app, context) => {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/train/pilot',
    operationalRoute({
      summary: 'Alias of POST /train/start {preset: pilot, …}: the original’s query parameters.',
      tags: originalTags,
      querystring: pilotQuerySchema,
    }),
    (request, reply) => startFromAlias(context, startRequestFromQuery('pilot', request.query), reply),
  )
}
