import type { FastifyReply, FastifyRequest } from 'fastify'
import { HttpError } from '../../http/http-errors.js'
import type { RouteModule } from '../route-module.js'
import type { OriginalRoutesOptions } from './original-route-context.js'

/** Each mutating alias with the route it stands for. */
const aliases: [string, string][] = [
  ['/train/smoke', 'POST /train/start'],
  ['/train/pilot', 'POST /train/start {"preset":"pilot"}'],
  ['/train/kill', 'POST /train/stop'],
  ['/train/push_to_hub', 'POST /hub/push'],
  ['/api/run-eval', 'POST /api/eval'],
]

const methodNotAllowed = (post: string, replacement: string) => (_request: FastifyRequest, reply: FastifyReply) => {
  reply.header('allow', 'POST')
  throw new HttpError({
    status: 405,
    code: 'method_not_allowed',
    message: `${post} changes state, so it is POST only (with the bearer token): curl -X POST -H "Authorization: Bearer $RELEASEOPS_TOKEN" '${post}'. Same as ${replacement}.`,
  })
}

/**
 * `GET` on a mutating alias: a 405 naming its POST route, because a state change behind GET can be
 * triggered by any page a browser visits (the original's CSRF hole).
 */
export const postOnlyAliases: RouteModule<OriginalRoutesOptions> = (app) => {
  for (const [path, replacement] of aliases) {
    app.get(
      path,
      // Public: it only answers 405 naming its POST route, and serves no data.
      { config: { access: 'public' }, schema: { hide: true } },
      methodNotAllowed(path, replacement),
    )
  }
}
