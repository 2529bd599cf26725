/**
 * @module server/routes: the original Space's routes as aliases on our handlers, so its notebook cells and
 * curl scripts keep working with a token added. Mutating aliases are POST with `access: 'operational'`
 * (the same route config as `/train/start`); a GET on them answers 405 naming the POST route, because a
 * state change behind GET can be triggered by any page a browser visits (the original's CSRF hole).
 *
 * | original                                   | here                                              |
 * |--------------------------------------------|---------------------------------------------------|
 * | `POST /train/smoke`                        | `POST /train/start {preset: smoke}`               |
 * | `POST /train/pilot?model_name&max_steps…`  | `POST /train/start {preset: pilot, …}`            |
 * | `POST /train/kill`                         | `POST /train/stop`                                |
 * | `POST /train/push_to_hub?repo_id&path`     | `POST /hub/push {repo, path}`                     |
 * | `GET /train/plot`                          | an auto-refreshing page around `/train/plot.png`  |
 * | `POST /api/run-eval?model_id&limit`        | `POST /api/eval`                                  |
 * | `GET /api/get-eval-results`                | the last eval job's summary                       |
 *
 * One module per route under `original/`, registered from the list below.
 */
import type { FastifyInstance } from 'fastify'
import { getEvalResultsAlias } from './original/get-eval-results-alias.js'
import type { OriginalRoutesOptions } from './original/original-route-context.js'
import { postOnlyAliases } from './original/post-only-aliases.js'
import { pushToHubAlias } from './original/push-to-hub-alias.js'
import { runEvalAlias } from './original/run-eval-alias.js'
import { trainKillAlias } from './original/train-kill-alias.js'
import { trainPilotAlias } from './original/train-pilot-alias.js'
import { trainPlotPage } from './original/train-plot-page.js'
import { trainSmokeAlias } from './original/train-smoke-alias.js'
import { type RouteModule, registerRoutes } from './route-module.js'

const originalRoutes: readonly RouteModule<OriginalRoutesOptions>[] = [
  trainSmokeAlias,
  trainPilotAlias,
  trainKillAlias,
  pushToHubAlias,
  runEvalAlias,
  getEvalResultsAlias,
  trainPlotPage,
  postOnlyAliases,
]

export function registerOriginalRoutes(app: FastifyInstance, options: OriginalRoutesOptions): void {
  registerRoutes(app, options, originalRoutes)
}
