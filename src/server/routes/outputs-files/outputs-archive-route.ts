import { basename } from 'node:path'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { type ArchiveNote, createTarGzStream } from '../../../io/tar-gz-stream.js'
import { resolveOutputsPath } from '../../../train/outputs-root.js'
import { withHttpErrors } from '../operations-support.js'
import type { RouteModule } from '../route-module.js'
import { attachmentName, type OutputsRouteContext, outputsAccess, outputsTags, pathQuery } from './outputs-route-context.js'

/** `GET /outputs/archive?path=`: a folder as a streamed .tar.gz; what it left out is logged. */
export const outputsArchiveRoute: RouteModule<OutputsRouteContext> = (app, { outputsRoot }) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/outputs/archive',
    {
      config: outputsAccess,
      schema: {
        summary:
          'A folder under the outputs root as a streamed .tar.gz (pax headers; links, FIFOs, sockets and devices are left out).',
        tags: outputsTags,
        querystring: pathQuery,
      },
    },
    (request, reply) =>
      withHttpErrors(async () => {
        const target = await resolveOutputsPath(outputsRoot, request.query.path)
        const name = target.relative === '' ? 'outputs' : basename(target.absolute)
        reply
          .type('application/gzip')
          .header('x-content-type-options', 'nosniff')
          .header('content-disposition', `attachment; filename="${attachmentName(name)}.tar.gz"`)
        if (request.method === 'HEAD') return reply.send()
        const notes: ArchiveNote[] = []
        const stream = createTarGzStream({
          source: target.absolute,
          name: target.relative === '' ? '.' : name,
          onNote: (note) => notes.push(note),
        })
        stream.once('end', () => {
          if (notes.length === 0) return
          const shown = notes.slice(0, 5).map((note) => `${note.path} (${note.detail})`)
          request.log.warn(
            `archive of ${target.relative || 'outputs'}: ${notes.length} entries left out or padded: ${shown.join(', ')}${notes.length > 5 ? ', …' : ''}`,
          )
        })
        return reply.send(stream)
      }),
  )
}
