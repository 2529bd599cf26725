/**
 * @module server/routes: `POST /hub/push {repo, path}`: uploads a checkpoint folder of the outputs
 * root to a Hub model repo with the server's own token (`HF_TOKEN`); the request names the repo and
 * the path, never a token, and both are validated. One push at a time.
 */
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { pushToHub } from '../../train/hub-push.js'
import { TrainingStateError } from '../../train/training-errors.js'
import { hubRepoIdSchema } from '../../train/training-request.js'
import type { TrainingSettings } from '../../train/training-settings.js'
import { operationalRoute, parseOrUnprocessable, refuseInCluster, withHttpErrors } from './operations-support.js'

const hubPushRequestSchema = z.strictObject({
  repo: hubRepoIdSchema.describe('Target model repo, owner/name.'),
  path: z.string().min(1).max(1024).describe('Folder or file under the outputs root, e.g. runs/<id>/best_by_reward.'),
  create_repo: z.boolean().default(false).describe('Create the repo (private) when it does not exist.'),
  commit_title: z.string().min(1).max(200).optional(),
})

export type HubPushRequest = Pick<z.output<typeof hubPushRequestSchema>, 'repo' | 'path' | 'create_repo'> & {
  commit_title?: string | undefined
}

/** Registers `POST /hub/push`; returns its push (one at a time), which the original's alias reuses. */
export function registerHubRoutes(
  app: FastifyInstance,
  options: { settings: TrainingSettings; clustered: boolean; fetch: typeof fetch },
): (request: HubPushRequest) => Promise<unknown> {
  const typed = app.withTypeProvider<ZodTypeProvider>()
  let pushing = false
  const push = (body: HubPushRequest) =>
    withHttpErrors(async () => {
      refuseInCluster(options.clustered)
      const data = parseOrUnprocessable(hubPushRequestSchema, body, { code: 'invalid_request', fallback: '' })
      if (pushing)
        throw new TrainingStateError({ code: 'push_running', message: 'A Hub push is in progress; retry when it ends.' })
      pushing = true
      try {
        const { settings } = options
        return await pushToHub({
          fetch: options.fetch,
          outputsRoot: settings.outputsDir,
          path: data.path,
          repo: data.repo,
          token: settings.hubToken,
          createIfMissing: data.create_repo,
          ...(settings.hubUrl ? { hubUrl: settings.hubUrl } : {}),
          ...(data.commit_title ? { commitTitle: data.commit_title } : {}),
        })
      } finally {
        pushing = false
      }
    })
  typed.post(
    '/hub/push',
    operationalRoute({
      summary: 'Upload a folder of the outputs root to a Hub model repo with the server’s HF_TOKEN.',
      tags: ['outputs'],
      body: hubPushRequestSchema,
    }),
    (request) => push(request.body),
  )
  return push
}
