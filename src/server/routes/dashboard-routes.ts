/**
 * @module server/routes: the dashboard (`web/`, static files served at `/ui/`, no CDN: Chart.js comes
 * from this package's `node_modules`), and what its pages read of an env: `GET /api/envs/{id}/rows`,
 * the dataset rows the play page offers, its policies, and the argument values it accepts under
 * several names. Files are read once at start-up from a fixed list (nothing is looked up by a request path),
 * and served with a strict Content-Security-Policy.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, extname, join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { EnvRegistry } from '../../core/registry/env-registry.js'
import type { PolicyRegistry } from '../../core/registry/policy-registry.js'
import { packageRoot } from '../../train/training-settings.js'
import { HttpError } from '../http/http-errors.js'

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
}

const securityHeaders = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
}

interface StaticFile {
  body: Buffer
  type: string
}

function loadWebFiles(folder: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>()
  if (!existsSync(folder)) return files
  for (const name of readdirSync(folder)) {
    const type = contentTypes[extname(name)]
    const path = join(folder, name)
    if (type && statSync(path).isFile()) files.set(name, { body: readFileSync(path), type })
  }
  const chartJs = join(dirname(createRequire(import.meta.url).resolve('chart.js')), 'chart.umd.min.js')
  files.set('vendor/chart.umd.min.js', { body: readFileSync(chartJs), type: contentTypes['.js'] as string })
  return files
}

export function registerDashboardRoutes(
  app: FastifyInstance,
  options: { registry: EnvRegistry; policies: PolicyRegistry; webDir?: string },
): void {
  const files = loadWebFiles(options.webDir ?? join(packageRoot, 'web'))
  const typed = app.withTypeProvider<ZodTypeProvider>()
  const config = { access: 'public' as const }

  app.get('/ui', { config, schema: { hide: true } }, (_request, reply) => reply.redirect('/ui/'))
  const serve = (name: string) => {
    const file = files.get(name)
    if (!file) throw new HttpError({ status: 404, code: 'not_found', message: `No dashboard file ${name}.` })
    return file
  }
  app.get(
    '/ui/',
    { config, schema: { summary: 'The dashboard: play, replay, eval and training pages.', tags: ['dashboard'] } },
    (_request, reply) => {
      const file = serve('index.html')
      return reply.headers(securityHeaders).type(file.type).send(file.body)
    },
  )
  app.get<{ Params: { '*': string } }>('/ui/*', { config, schema: { hide: true } }, (request, reply) => {
    const file = serve(request.params['*'])
    return reply.headers(securityHeaders).type(file.type).send(file.body)
  })

  typed.get(
    '/api/envs/:id/rows',
    {
      config,
      schema: {
        summary:
          'Dataset rows of a split without their prompts, each with the reset arguments it maps to (what the play page offers).',
        tags: ['dashboard'],
        params: z.object({ id: z.string().max(100) }),
        querystring: z.object({
          split: z.string().max(64).optional(),
          offset: z.coerce.number().int().min(0).default(0),
          limit: z.coerce.number().int().min(1).max(1000).default(200),
        }),
      },
    },
    (request) => {
      const registration = options.registry.get(request.params.id)
      const dataset = registration.dataset
      if (!dataset) return { env_id: request.params.id, splits: [], split: null, total: 0, rows: [] }
      const split = request.query.split ?? dataset.splits[0] ?? ''
      const rows = dataset.rows(split)
      return {
        env_id: request.params.id,
        splits: dataset.splits,
        split,
        total: rows.length,
        rows: rows.slice(request.query.offset, request.query.offset + request.query.limit).map((row, index) => {
          const { prompt: _prompt, ...rest } = row
          // What the env's reset takes for this row (a grading row goes under options.row, not top level).
          return { index: request.query.offset + index, ...rest, reset: dataset.toResetParams(rest) }
        }),
      }
    },
  )

  typed.get(
    '/api/envs/:id/argument-aliases',
    {
      config,
      schema: {
        summary:
          'Tool argument values an env accepts under several names, each with its canonical name (rule_id: S1 → no_p1_open).',
        tags: ['dashboard'],
        params: z.object({ id: z.string().max(100) }),
      },
    },
    (request) => ({
      env_id: request.params.id,
      arguments: options.registry.get(request.params.id).argumentAliases ?? {},
    }),
  )

  typed.get(
    '/api/envs/:id/policies',
    {
      config,
      schema: {
        summary: 'Policies registered for an env (baselines; privileged ones read hidden state).',
        tags: ['dashboard'],
        params: z.object({ id: z.string().max(100) }),
      },
    },
    (request) => {
      options.registry.get(request.params.id)
      return {
        env_id: request.params.id,
        policies: options.policies.names(request.params.id).map((name) => {
          const policy = options.policies.get(request.params.id, name)
          return { name, description: policy.description, privileged: policy.privileged === true }
        }),
      }
    },
  )
}
