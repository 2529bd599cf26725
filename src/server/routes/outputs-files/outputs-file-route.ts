import { constants } from 'node:fs'
import { open } from 'node:fs/promises'
import { basename, extname } from 'node:path'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { OutputsPathError, resolveOutputsPath } from '../../../train/outputs-root.js'
import { withHttpErrors } from '../operations-support.js'
import type { RouteModule } from '../route-module.js'
import { attachmentName, type OutputsRouteContext, outputsAccess, outputsTags, pathQuery } from './outputs-route-context.js'

const contentTypes: Record<string, string> = {
  '.json': 'application/json; charset=utf-8',
  '.jsonl': 'application/x-ndjson; charset=utf-8',
  '.log': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.jinja': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.png': 'image/png',
}

/** `GET /outputs/file?path=`: one file, opened with `O_NOFOLLOW`, served as data (`nosniff`). */
export const outputsFileRoute: RouteModule<OutputsRouteContext> = (app, { outputsRoot }) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/outputs/file',
    {
      config: outputsAccess,
      schema: { summary: 'One file under the outputs root.', tags: outputsTags, querystring: pathQuery },
    },
    (request, reply) =>
      withHttpErrors(async () => {
        const target = await resolveOutputsPath(outputsRoot, request.query.path)
        if (target.type !== 'file') {
          throw new OutputsPathError({
            code: 'not_a_file',
            message: 'That is a folder: use /outputs/archive to download it.',
            path: request.query.path,
          })
        }
        // O_NOFOLLOW: a link swapped in after the check is refused by the kernel, not followed.
        const handle = await open(target.absolute, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => {
          throw new OutputsPathError({
            code: 'symlink_refused',
            message: 'The file changed into a link.',
            path: request.query.path,
            status: 403,
          })
        })
        const type = contentTypes[extname(target.absolute).toLowerCase()]
        reply
          .type(type ?? 'application/octet-stream')
          .header('x-content-type-options', 'nosniff')
          .header('content-length', String((await handle.stat()).size))
          .header(
            'content-disposition',
            `${type ? 'inline' : 'attachment'}; filename="${attachmentName(basename(target.absolute))}"`,
          )
        return reply.send(handle.createReadStream())
      }),
  )
}
