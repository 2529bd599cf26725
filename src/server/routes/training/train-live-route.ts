import { type FeedEvent, watchTraining } from '../../../train/training-feed.js'
import { HttpError } from '../../http/http-errors.js'
import type { RouteModule } from '../route-module.js'
import { operatorAccess, type TrainingRouteContext, trainingTags } from './training-route-context.js'

const liveHeaders = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
}

/** `GET /train/live`: Server-Sent Events of the run, up to `maxLiveConnections` streams at once. */
export const trainLiveRoute: RouteModule<TrainingRouteContext> = (app, context) => {
  context.supervisor.setMaxListeners(0)
  app.get(
    '/train/live',
    {
      config: operatorAccess,
      schema: {
        summary: 'Server-Sent Events: `status`, `metrics` (new log-history rows) and `log` (new lines).',
        tags: trainingTags,
      },
    },
    (request, reply) => {
      // HEAD: the stream's headers and nothing else, so the response ends (no feed, no slot taken).
      if (request.method === 'HEAD') return reply.code(200).headers(liveHeaders).send()
      if (context.live.connections >= (context.maxLiveConnections ?? 32)) {
        throw new HttpError({
          status: 503,
          code: 'too_many_streams',
          message: 'Too many live streams open; close one and retry.',
        })
      }
      context.live.connections++
      reply.hijack()
      streamFeed(reply.raw, context)
    },
  )
}

/** Writes the feed and a heartbeat to `raw` until the client goes away. */
function streamFeed(raw: import('node:http').ServerResponse, context: TrainingRouteContext): void {
  raw.writeHead(200, { ...liveHeaders, connection: 'keep-alive' })
  raw.write(': releaseops training feed\n\n')
  const send = (event: FeedEvent) => {
    if (!raw.writableEnded) raw.write(`event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`)
  }
  const feed = watchTraining({
    supervisor: context.supervisor,
    send,
    ...(context.liveIntervalMs ? { intervalMs: context.liveIntervalMs } : {}),
  })
  const heartbeat = setInterval(() => {
    if (!raw.writableEnded) raw.write(': ping\n\n')
  }, 15_000)
  heartbeat.unref()
  raw.once('close', () => {
    feed.stop()
    clearInterval(heartbeat)
    context.live.connections--
  })
}
