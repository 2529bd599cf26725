/**
 * @module server/routes: `/outputs/ls`, `/outputs/file?path=` and `/outputs/archive?path=` (a streamed
 * tar.gz), all confined to the outputs root: relative paths only, no `..`, no symbolic link anywhere on
 * the way (refused, never followed), and files opened with `O_NOFOLLOW`. Files are served as data
 * (never as HTML, `nosniff`), so an output cannot script the dashboard's origin.
 */
import { constants } from 'node:fs'
import { open } from 'node:fs/promises'
import { basename, extname } from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { type ArchiveNote, createTarGzStream } from '../../io/tar-gz-stream.js'
import { listOutputs, OutputsPathError, resolveOutputsPath } from '../../train/outputs-root.js'
import { withHttpErrors } from './operations-support.js'

const tags = ['outputs']
/** Outputs hold checkpoints and logs: operator level (decision 0047). */
const operator = { access: 'operator' as const }
const pathQuery = z.object({ path: z.string().max(1024).default('').describe('Relative to the outputs root.') })

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

/** A header-safe file name for Content-Disposition. */
function attachmentName(name: string): string {
  return name.replace(/[^\w.-]/g, '_') || 'download'
}

export function registerOutputsRoutes(app: FastifyInstance, options: { outputsRoot: string }): void {
  const typed = app.withTypeProvider<ZodTypeProvider>()
  const root = options.outputsRoot

  typed.get(
    '/outputs/ls',
    {
      config: operator,
      schema: {
        summary: 'Files and folders under the outputs root (symbolic links listed, never followed).',
        tags,
        querystring: pathQuery.extend({ depth: z.coerce.number().int().min(1).max(16).default(6) }),
      },
    },
    (request) =>
      withHttpErrors(async () => ({
        root: 'outputs',
        ...(await listOutputs({ root, path: request.query.path, maxDepth: request.query.depth })),
      })),
  )

  typed.get(
    '/outputs/file',
    { config: operator, schema: { summary: 'One file under the outputs root.', tags, querystring: pathQuery } },
    (request, reply) =>
      withHttpErrors(async () => {
        const target = await resolveOutputsPath(root, request.query.path)
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

  typed.get(
    '/outputs/archive',
    {
      config: operator,
      schema: {
        summary:
          'A folder under the outputs root as a streamed .tar.gz (pax headers; links, FIFOs, sockets and devices are left out).',
        tags,
        querystring: pathQuery,
      },
    },
    (request, reply) =>
      withHttpErrors(async () => {
        const target = await resolveOutputsPath(root, request.query.path)
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
