/**
 * @module server/routes: `/train/*`: start (a preset plus validated overrides) and stop a GRPO run —
 * operational, POST, token always — and read-only views of it: status, log tail, metrics (log history),
 * summary, a live Server-Sent Events feed, a PNG plot rendered here, and every run side by side. One
 * module per route under `training/`, registered from the list below.
 */
import type { FastifyInstance } from 'fastify'
import { type RouteModule, registerRoutes } from './route-module.js'
import { trainLiveRoute } from './training/train-live-route.js'
import { trainLogsRoute } from './training/train-logs-route.js'
import { trainMetricsRoute } from './training/train-metrics-route.js'
import { trainPlotRoute } from './training/train-plot-route.js'
import { trainRunsRoute } from './training/train-runs-route.js'
import { trainStartRoute } from './training/train-start-route.js'
import { trainStatusRoute } from './training/train-status-route.js'
import { trainStopRoute } from './training/train-stop-route.js'
import { trainSummaryRoute } from './training/train-summary-route.js'
import { type TrainingRouteContext, type TrainingRoutesOptions, trainingRouteContext } from './training/training-route-context.js'

const trainingRoutes: readonly RouteModule<TrainingRouteContext>[] = [
  trainStartRoute,
  trainStopRoute,
  trainStatusRoute,
  trainRunsRoute,
  trainLogsRoute,
  trainMetricsRoute,
  trainSummaryRoute,
  trainPlotRoute,
  trainLiveRoute,
]

export function registerTrainingRoutes(app: FastifyInstance, options: TrainingRoutesOptions): void {
  registerRoutes(app, trainingRouteContext(options), trainingRoutes)
}
