import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { operationalRoute } from '../operations-support.js'
import type { RouteModule } from '../route-module.js'
import { type OriginalRoutesOptions, originalTags, queryBoolean } from './original-route-context.js'

/** `POST /train/push_to_hub?repo_id&path`: `POST /hub/push {repo, path}`. */
export const pushToHubAlias: RouteModule<OriginalRoutesOptions> = (app, context) => {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/train/push_to_hub',
    operationalRoute({
      summary: 'Alias of POST /hub/push {repo: repo_id, path}.',
      tags: originalTags,
      querystring: z.strictObject({ repo_id: z.string(), path: z.string(), create_repo: queryBoolean.optional() }),
    }),
    (request) =>
      context.push({ repo: request.query.repo_id, path: request.query.path, create_repo: request.query.create_repo ?? false }),
  )
}
