/**
 * @module server/routes: the original Space's routes as aliases on our handlers, so its notebook cells and
 * curl scripts keep working with a token added. Mutating aliases are POST with `access: 'operational'`
 * (the same route config as `/train/start`); a GET on them answers 405 naming the POST route, because a
 * state change behind GET can be triggered by any page a browser visits (the original's CSRF hole).
 *
 * | original                                   | here                                              |
 * |--------------------------------------------|---------------------------------------------------|
 * | `POST /train/smoke`                        | `POST /train/start {preset: smoke}`               |
 * | `POST /train/pilot?model_name&max_steps…`  | `POST /train/start {preset: pilot, …}`            |
 * | `POST /train/kill`                         | `POST /train/stop`                                |
 * | `POST /train/push_to_hub?repo_id&path`     | `POST /hub/push {repo, path}`                     |
 * | `GET /train/plot`                          | an auto-refreshing page around `/train/plot.png`  |
 * | `POST /api/run-eval?model_id&limit`        | `POST /api/eval`                                  |
 * | `GET /api/get-eval-results`                | the last eval job's summary                       |
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { EvalJobRunner } from '../../eval/eval-job.js'
import { evalJobRequestSchema } from '../../eval/eval-job.js'
import type { OutboundPolicy } from '../../io/outbound/outbound-policy.js'
import { type TrainingStartRequest, trainingStartSchema } from '../../train/training-request.js'
import type { TrainingSupervisor } from '../../train/training-supervisor.js'
import { HttpError } from '../http/http-errors.js'
import {
  allowedEndpoint,
  operationalRoute,
  parseOrUnprocessable,
  refuseInCluster,
  startTraining,
  withHttpErrors,
} from './operations-support.js'

export interface OriginalRoutesOptions {
  supervisor: TrainingSupervisor
  jobs: EvalJobRunner
  clustered: boolean
  /** The `POST /hub/push` handler's work, shared so the alias is the same push. */
  push: (body: { repo: string; path: string; create_repo: boolean }) => Promise<unknown>
  /** Checks the URLs a request names (eval endpoints, the vLLM server). */
  outbound: OutboundPolicy
}

const tags = ['original Space aliases']
const queryBoolean = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1')
const queryNumber = z.coerce.number()

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

const methodNotAllowed = (post: string, replacement: string) => (_request: FastifyRequest, reply: FastifyReply) => {
  reply.header('allow', 'POST')
  throw new HttpError({
    status: 405,
    code: 'method_not_allowed',
    message: `${post} changes state, so it is POST only (with the bearer token): curl -X POST -H "Authorization: Bearer $RELEASEOPS_TOKEN" '${post}'. Same as ${replacement}.`,
  })
}

export function registerOriginalRoutes(app: FastifyInstance, options: OriginalRoutesOptions): void {
  const typed = app.withTypeProvider<ZodTypeProvider>()
  const { supervisor, jobs, clustered } = options
  const operator = { access: 'operator' as const }

  const start = async (request: TrainingStartRequest, reply: FastifyReply) => {
    const status = await startTraining({ supervisor, clustered, request, outbound: options.outbound })
    return reply
      .code(202)
      .send({ started: true, message: 'Training started. Poll /train/status or /train/logs for progress.', ...status })
  }

  typed.post(
    '/train/smoke',
    operationalRoute({ summary: 'Alias of POST /train/start {preset: smoke}.', tags }),
    (_request, reply) => start(trainingStartSchema.parse({ preset: 'smoke' }), reply),
  )
  typed.post(
    '/train/pilot',
    operationalRoute({
      summary: 'Alias of POST /train/start {preset: pilot, …}: the original’s query parameters.',
      tags,
      querystring: pilotQuerySchema,
    }),
    (request, reply) => start(startRequestFromQuery('pilot', request.query), reply),
  )
  typed.post('/train/kill', operationalRoute({ summary: 'Alias of POST /train/stop.', tags }), () => {
    refuseInCluster(clustered)
    return withHttpErrors(() => supervisor.stop())
  })
  typed.post(
    '/train/push_to_hub',
    operationalRoute({
      summary: 'Alias of POST /hub/push {repo: repo_id, path}.',
      tags,
      querystring: z.strictObject({ repo_id: z.string(), path: z.string(), create_repo: queryBoolean.optional() }),
    }),
    (request) =>
      options.push({ repo: request.query.repo_id, path: request.query.path, create_repo: request.query.create_repo ?? false }),
  )
  typed.post(
    '/api/run-eval',
    operationalRoute({
      summary:
        'Alias of POST /api/eval: limit → max_rows; model_id needs base_url (an OpenAI-compatible endpoint serving it, e.g. vLLM).',
      tags,
      querystring: z.strictObject({
        limit: queryNumber.optional(),
        model_id: z.string().optional(),
        base_url: z.string().optional(),
        subfolder: z.string().optional().describe('Accepted for compatibility: the endpoint serves the checkpoint.'),
      }),
    }),
    (request, reply) =>
      withHttpErrors(async () => {
        refuseInCluster(clustered)
        const { limit, model_id, base_url } = request.query
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
        const parsed = parseOrUnprocessable(evalJobRequestSchema, body, { code: 'invalid_query', fallback: '' })
        if (parsed.model) await allowedEndpoint({ policy: options.outbound, url: parsed.model.base_url, path: 'base_url' })
        const status = jobs.start(parsed)
        return reply.code(202).send({ message: 'Evaluation started in background. Poll /api/get-eval-results.', ...status })
      }),
  )
  typed.get(
    '/api/get-eval-results',
    { config: operator, schema: { summary: 'The last eval job’s summary (the original’s shape when missing).', tags } },
    () => {
      const status = jobs.status()
      if (status.state !== 'succeeded' || status.summary === null) {
        return { status: 'pending_or_missing', message: 'Result file not found yet.', job: status }
      }
      return status.summary
    },
  )
  typed.get(
    '/train/plot',
    { config: operator, schema: { summary: 'An auto-refreshing page showing /train/plot.png.', tags } },
    (_request, reply) => {
      reply.type('text/html; charset=utf-8')
      return plotPage
    },
  )

  const aliases: [string, string][] = [
    ['/train/smoke', 'POST /train/start'],
    ['/train/pilot', 'POST /train/start {"preset":"pilot"}'],
    ['/train/kill', 'POST /train/stop'],
    ['/train/push_to_hub', 'POST /hub/push'],
    ['/api/run-eval', 'POST /api/eval'],
  ]
  for (const [path, replacement] of aliases) {
    app.get(
      path,
      // Public: it only answers 405 naming its POST route, and serves no data.
      { config: { access: 'public' }, schema: { hide: true } },
      methodNotAllowed(path, replacement),
    )
  }
}

const plotPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="10"><title>ReleaseOps GRPO training</title></head>
<body style="font-family: system-ui, sans-serif; margin: 1rem"><h1 style="font-size: 1.1rem">ReleaseOps GRPO training</h1>
<img src="/train/plot.png" alt="reward, loss, tool-call and rejected-call rates of the current run" style="max-width: 100%">
<p><a href="/train/status">status</a> · <a href="/train/logs">logs</a> · <a href="/train/metrics?format=original">metrics</a> · <a href="/ui/">dashboard</a></p>
</body></html>
`
