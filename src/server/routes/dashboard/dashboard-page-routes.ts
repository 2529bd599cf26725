import type { RouteModule } from '../route-module.js'
import { type DashboardRouteContext, dashboardAccess, dashboardFile, securityHeaders } from './dashboard-route-context.js'

const config = dashboardAccess

/** `GET /ui`: redirects to `/ui/`. */
export const dashboardRedirectRoute: RouteModule<DashboardRouteContext> = (app) => {
  app.get('/ui', { config, schema: { hide: true } }, (_request, reply) => reply.redirect('/ui/'))
}

/** `GET /ui/`: the dashboard's page. */
export const dashboardIndexRoute: RouteModule<DashboardRouteContext> = (app, { files }) => {
  app.get(
    '/ui/',
    { config, schema: { summary: 'The dashboard: play, replay, eval and training pages.', tags: ['dashboard'] } },
    (_request, reply) => {
      const file = dashboardFile(files, 'index.html')
      return reply.headers(securityHeaders).type(file.type).send(file.body)
    },
  )
}

/** `GET /ui/*`: one of the loaded files by name (a 404 for any other). */
export const dashboardFileRoute: RouteModule<DashboardRouteContext> = (app, { files }) => {
  app.get<{ Params: { '*': string } }>('/ui/*', { config, schema: { hide: true } }, (request, reply) => {
    const file = dashboardFile(files, request.params['*'])
    return reply.headers(securityHeaders).type(file.type).send(file.body)
  })
}
