import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { listOutputs } from '../../../train/outputs-root.js'
import { withHttpErrors } from '../operations-support.js'
import type { RouteModule } from '../route-module.js'
import { type OutputsRouteContext, outputsAccess, outputsTags, pathQuery } from './outputs-route-context.js'

/** `GET /outputs/ls`: files and folders under the outputs root. */
export const outputsListRoute: RouteModule<OutputsRouteContext> = (app, { outputsRoot }) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/outputs/ls',
    {
      config: outputsAccess,
      schema: {
        summary: 'Files and folders under the outputs root (symbolic links listed, never followed).',
        tags: outputsTags,
        querystring: pathQuery.extend({ depth: z.coerce.number().int().min(1).max(16).default(6) }),
      },
    },
    (request) =>
      withHttpErrors(async () => ({
        root: 'outputs',
        ...(await listOutputs({ root: outputsRoot, path: request.query.path, maxDepth: request.query.depth })),
      })),
  )
}
