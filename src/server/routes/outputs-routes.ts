/**
 * @module server/routes: `/outputs/ls`, `/outputs/file?path=` and `/outputs/archive?path=` (a streamed
 * tar.gz), all confined to the outputs root: relative paths only, no `..`, no symbolic link anywhere on
 * the way (refused, never followed), and files opened with `O_NOFOLLOW`. Files are served as data
 * (never as HTML, `nosniff`), so an output cannot script the dashboard's origin. One module per route
 * under `outputs-files/`, registered from the list below.
 */
import type { FastifyInstance } from 'fastify'
import { outputsArchiveRoute } from './outputs-files/outputs-archive-route.js'
import { outputsFileRoute } from './outputs-files/outputs-file-route.js'
import { outputsListRoute } from './outputs-files/outputs-list-route.js'
import type { OutputsRouteContext } from './outputs-files/outputs-route-context.js'
import { type RouteModule, registerRoutes } from './route-module.js'

const outputsRoutes: readonly RouteModule<OutputsRouteContext>[] = [outputsListRoute, outputsFileRoute, outputsArchiveRoute]

export function registerOutputsRoutes(app: FastifyInstance, options: OutputsRouteContext): void {
  registerRoutes(app, options, outputsRoutes)
}
