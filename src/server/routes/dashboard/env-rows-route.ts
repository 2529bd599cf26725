import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { EnvDataset } from '../../../core/env/env-dataset.js'
import type { RouteModule } from '../route-module.js'
import { type DashboardRouteContext, dashboardAccess, dashboardTags, envIdParams } from './dashboard-route-context.js'

/**
 * A page of a split's rows without their prompts, each with the reset arguments it maps to (a grading row
 * goes under options.row, not top level); the first split when none is named, nothing without a dataset.
 */
export function datasetRowsPage(
  envId: string,
  dataset: EnvDataset | undefined,
  query: { split?: string | undefined; offset: number; limit: number },
) {
  if (!dataset) return { env_id: envId, splits: [], split: null, total: 0, rows: [] }
  const split = query.split ?? dataset.splits[0] ?? ''
  const rows = dataset.rows(split)
  return {
    env_id: envId,
    splits: dataset.splits,
    split,
    total: rows.length,
    rows: rows.slice(query.offset, query.offset + query.limit).map((row, index) => {
      const { prompt: _prompt, ...rest } = row
      return { index: query.offset + index, ...rest, reset: dataset.toResetParams(rest) }
    }),
  }
}

/** `GET /api/envs/:id/rows`: what the play page offers. */
export const envRowsRoute: RouteModule<DashboardRouteContext> = (app, { registry }) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/envs/:id/rows',
    {
      config: dashboardAccess,
      schema: {
        summary:
          'Dataset rows of a split without their prompts, each with the reset arguments it maps to (what the play page offers).',
        tags: dashboardTags,
        params: envIdParams,
        querystring: z.object({
          split: z.string().max(64).optional(),
          offset: z.coerce.number().int().min(0).default(0),
          limit: z.coerce.number().int().min(1).max(1000).default(200),
        }),
      },
    },
    (request) => datasetRowsPage(request.params.id, registry.get(request.params.id).dataset, request.query),
  )
}
