/**
 * @module server/routes: `GET /` (a machine-readable index of every route, WebSocket ones included) and
 * `GET /envs/{id}/openapi.json` (the OpenAPI document of one env with its paths relative to its base,
 * so `openenv validate --url http://host/envs/{id}` passes there too).
 */
import type { FastifyInstance, RouteOptions } from 'fastify'
import type { EnvHost } from '../env-host.js'
import { declaredAccessOf, type RouteAccess } from '../http/token-guard.js'
import { openEnvApiVersion, packageVersion } from '../package-version.js'
import type { ServerContext } from '../server-context.js'

export interface IndexedRoute {
  method: string
  path: string
  summary: string
  websocket: boolean
  access: RouteAccess
}

/** Starts recording routes; call before any route is registered. */
export function recordRoutes(app: FastifyInstance): IndexedRoute[] {
  const routes: IndexedRoute[] = []
  app.addHook('onRoute', (route: RouteOptions & { wsHandler?: unknown }) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    const summary = (route.schema as { summary?: string } | undefined)?.summary ?? ''
    for (const method of methods) {
      if (method === 'HEAD' || route.url.startsWith('/docs/') || route.url === '/docs') continue
      routes.push({
        method,
        path: route.url,
        summary,
        websocket: route.wsHandler !== undefined || route.websocket === true,
        access: declaredAccessOf(route),
      })
    }
  })
  return routes
}

export function registerIndexRoutes(app: FastifyInstance, options: { context: ServerContext; routes: IndexedRoute[] }): void {
  const { context, routes } = options
  app.get('/', { config: { access: 'public' }, schema: { summary: 'Index of every route.', tags: ['server'] } }, () => ({
    name: 'releaseops',
    version: packageVersion,
    api_version: openEnvApiVersion,
    default_env: context.defaultHost.id,
    envs: context.hosts.map((host) => ({ id: host.id, base: host.prefix, default: host.isDefault })),
    docs: '/docs',
    openapi: '/openapi.json',
    auth: context.options.token === undefined ? 'none (session routes open)' : 'bearer token on session routes',
    routes,
  }))

  app.get('/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, () => app.swagger())
  for (const host of context.hosts) {
    app.get(
      `${host.prefix}/openapi.json`,
      {
        config: { access: 'public' },
        schema: { summary: `OpenAPI document of ${host.id}, paths relative to its base.`, hide: true },
      },
      () => envOpenApi(app, host),
    )
  }
}

/** The server's OpenAPI document reduced to one env's paths, rebased on `/envs/{id}`. */
function envOpenApi(app: FastifyInstance, host: EnvHost): Record<string, unknown> {
  const document = app.swagger() as { paths?: Record<string, unknown>; info?: Record<string, unknown> }
  const paths: Record<string, unknown> = {}
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (path.startsWith(`${host.prefix}/`)) paths[path.slice(host.prefix.length)] = item
  }
  return {
    ...document,
    info: { ...document.info, title: `ReleaseOps ${host.id}` },
    servers: [{ url: host.prefix }],
    paths,
  }
}
