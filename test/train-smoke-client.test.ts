/**
 * The training smoke's client against the real server (trainer process double): every reply the smoke
 * reads parses with its zod schema, the live feed is counted through the SSE parser, and a reply of
 * another shape is a coded `bad_reply`, not a cast.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { errorReplySchema } from '../src/core/wire/openenv-reply.js'
import { parseReply, SmokeClient, waitForEnd } from '../src/train/smoke/smoke-client.js'
import {
  outputsListingSchema,
  serverCountersSchema,
  trainingMetricsReplySchema,
  trainingStartReplySchema,
  trainingStatusReplySchema,
} from '../src/train/smoke/smoke-replies.js'
import { type OperationsServer, startOperationsServer, token, waitFor } from './train-support/operations-server.js'

let server: OperationsServer

beforeAll(async () => {
  process.env.FAKE_TRAINER_STEP_SECONDS = '0.1'
  server = await startOperationsServer()
})

afterAll(async () => {
  delete process.env.FAKE_TRAINER_STEP_SECONDS
  await server.dispose()
})

describe('train smoke client', () => {
  it('reads a run through the routes the smoke uses, every reply parsed by its schema', async () => {
    const client = new SmokeClient(server.url, token)
    const anonymous = await client.request('POST', '/train/start', {}, { token: false })
    expect(anonymous.status).toBe(401)
    const live = client.live()
    const started = await client.parsed(trainingStartReplySchema, 'POST', '/train/start', {
      preset: 'pilot',
      max_steps: 3,
      logging_steps: 1,
    })
    expect(started.run_id).toMatch(/pilot/)
    expect(started.pid).toBeGreaterThan(0)
    const second = await client.request('POST', '/train/start', { preset: 'pilot' })
    expect(second.status).toBe(409)
    expect(errorReplySchema.parse(second.json).error.code).toBe('training_running')
    const status = await waitForEnd(client, 30_000)
    expect(status).toMatchObject({ state: 'succeeded', running: false, exit_code: 0 })
    await waitFor(() => (live.counts.status ?? 0) > 0 && (live.counts.metrics ?? 0) > 0)
    await waitFor(() => trainingStatusReplySchema.safeParse(live.last.status).data?.state === 'succeeded')
    live.stop()
    const metrics = await client.parsed(trainingMetricsReplySchema, 'GET', '/train/metrics')
    expect(metrics.log_history.some((row) => typeof row.loss === 'number')).toBe(true)
    const counters = await client.parsed(serverCountersSchema, 'GET', '/counters?env=releaseops-v2&recent=10')
    expect(Array.isArray(counters.recent_episodes)).toBe(true)
    const listing = await client.parsed(outputsListingSchema, 'GET', `/outputs/ls?path=runs/${started.run_id}&depth=3`)
    expect(listing.entries?.map((entry) => entry.path)).toContain(`runs/${started.run_id}/metrics.json`)
  })

  it('a reply of another shape, or an error status, is a coded error naming the route', async () => {
    const client = new SmokeClient(server.url, token)
    await expect(client.parsed(serverCountersSchema, 'GET', '/train/metrics')).rejects.toMatchObject({
      code: 'bad_reply',
      message: expect.stringContaining('GET /train/metrics'),
    })
    expect(() => parseReply(trainingStatusReplySchema, 'GET /x', { status: 503, json: {} })).toThrow(
      expect.objectContaining({ code: 'http_failed' }),
    )
  })
})
