/**
 * The original Space's routes as aliases (its notebook cells and curl scripts, with a token added): every
 * one answers (not 404); mutating ones are POST with the operational token and a GET names the POST
 * route (405); `/train/pilot` takes the original's query parameters; `/train/metrics?format=original`
 * gives `{smoke, pilot}`; after a kill the metrics no longer say `running`; the Hub alias answers a coded
 * 503 when the Hub cannot be reached. Trainer: the process double (test/train-support/fake-trainer.py).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type OperationsServer, startOperationsServer, waitFor } from './train-support/operations-server.js'

type Json = Record<string, unknown>

let server: OperationsServer

beforeAll(async () => {
  process.env.FAKE_TRAINER_STEP_SECONDS = '0.1'
  // A Hub that cannot be reached: a token, and an endpoint on a port nothing listens on.
  server = await startOperationsServer({ training: { hubToken: 'hf_test', hubUrl: 'http://127.0.0.1:9' } })
})

afterAll(async () => {
  delete process.env.FAKE_TRAINER_STEP_SECONDS
  await server.dispose()
})

const status = async () => (await (await server.call('/train/status')).json()) as Json

describe('original routes', () => {
  const mutating = ['/train/smoke', '/train/pilot', '/train/kill', '/train/push_to_hub', '/api/run-eval']

  it('a GET on a mutating route is a 405 naming the POST route, never a state change', async () => {
    for (const path of mutating) {
      const response = await server.call(`${path}?max_steps=1`, { token: null })
      expect(response.status, path).toBe(405)
      expect(response.headers.get('allow')).toBe('POST')
      const body = (await response.json()) as { error: { code: string; message: string } }
      expect(body.error.code).toBe('method_not_allowed')
      expect(body.error.message).toContain(`curl -X POST`)
      expect(body.error.message).toContain(path)
    }
    expect((await status()).state).toBe('idle')
  })

  it('a POST without the token is refused like /train/start', async () => {
    for (const path of mutating) {
      const response = await server.call(path, { method: 'POST', token: null })
      expect(response.status, path).toBe(401)
    }
  })

  it('/train/pilot takes the original query; metrics in the original shape; /train/plot is a page', async () => {
    const start = await server.call(
      '/train/pilot?max_steps=3&num_generations=4&learning_rate=0.0005&logging_steps=1&bf16=false',
      {
        method: 'POST',
      },
    )
    expect(start.status).toBe(202)
    const started = (await start.json()) as Json
    expect(started).toMatchObject({ started: true, preset: 'pilot', state: 'running' })
    expect(started.parameters).toMatchObject({ maxSteps: 3, numGenerations: 4, learningRate: 0.0005, bf16: false })
    await waitFor(async () => (await status()).state === 'succeeded')
    const original = (await (await server.call('/train/metrics?format=original')).json()) as Json
    expect(original.smoke).toBeNull()
    expect(Array.isArray(original.pilot) && original.pilot.filter((row: Json) => 'loss' in row).length).toBe(3)
    const summary = (await (await server.call('/train/summary')).json()) as { summary: Json }
    expect(summary.summary).toMatchObject({ rejected_call_rate_first: 1, rejected_call_rate_last: 1 / 3 })
    const page = await server.call('/train/plot')
    expect(page.headers.get('content-type')).toContain('text/html')
    expect(await page.text()).toContain('<img src="/train/plot.png"')
    const bad = await server.call('/train/pilot?max_steps=0', { method: 'POST' })
    expect(bad.status).toBe(422)
    expect(((await bad.json()) as { error: Json }).error).toMatchObject({ code: 'invalid_query', path: 'max_steps' })
  })

  it('/train/smoke starts the smoke preset; /train/kill stops it; metrics then say stopped, not running', async () => {
    process.env.FAKE_TRAINER_STEP_SECONDS = '5'
    try {
      const start = await server.call('/train/smoke', { method: 'POST' })
      expect(start.status).toBe(202)
      expect(((await start.json()) as Json).preset).toBe('smoke')
      await waitFor(async () => ((await (await server.call('/train/metrics')).json()) as Json).status === 'running', 30_000)
      const kill = await server.call('/train/kill', { method: 'POST' })
      expect(kill.status).toBe(200)
      expect(((await kill.json()) as Json).state).toBe('stopped')
      const metrics = (await (await server.call('/train/metrics')).json()) as Json
      expect(metrics.status).toBe('stopped')
      const original = (await (await server.call('/train/metrics?format=original')).json()) as Json
      expect(original.pilot).toBeNull()
      expect(Array.isArray(original.smoke)).toBe(true)
    } finally {
      process.env.FAKE_TRAINER_STEP_SECONDS = '0.1'
    }
  })

  it('/train/push_to_hub answers a coded 503 when the Hub cannot be reached (not a 500)', async () => {
    const runs = (await (await server.call('/outputs/ls?path=runs')).json()) as { entries: { path: string }[] }
    const run = runs.entries[0]?.path as string
    const response = await server.call(`/train/push_to_hub?repo_id=someone/model&path=${encodeURIComponent(run)}`, {
      method: 'POST',
    })
    expect(response.status).toBe(503)
    expect(((await response.json()) as { error: Json }).error.code).toBe('hub_unreachable')
    const direct = await server.call('/hub/push', { method: 'POST', body: { repo: 'someone/model', path: run } })
    expect(direct.status).toBe(503)
  })

  it('/api/run-eval starts an eval job; /api/get-eval-results answers pending, then the summary', async () => {
    const pending = (await (await server.call('/api/get-eval-results')).json()) as Json
    expect(pending).toMatchObject({ status: 'pending_or_missing', message: 'Result file not found yet.' })
    const needsEndpoint = await server.call('/api/run-eval?model_id=someone/model', { method: 'POST' })
    expect(needsEndpoint.status).toBe(422)
    expect(((await needsEndpoint.json()) as { error: Json }).error.code).toBe('model_endpoint_required')
    const start = await server.call('/api/run-eval?limit=2', { method: 'POST' })
    expect(start.status).toBe(202)
    await waitFor(async () => ((await (await server.call('/api/eval')).json()) as Json).state === 'succeeded')
    const results = (await (await server.call('/api/get-eval-results')).json()) as Json
    expect(results.status).toBeUndefined()
    expect(JSON.stringify(results)).toContain('releaseops-v2')
  })
})
