/**
 * The read side of `/train/*` over a run of the trainer process double: status through the run, the log
 * tail, the live log history, the summary (reward first/last/delta, tool frequencies, last loss), the
 * server-rendered PNG, and `/train/live` streaming status, metrics and log events as they happen.
 */
import { request } from 'node:http'
import { createCanvas, loadImage } from '@napi-rs/canvas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type OperationsServer, startOperationsServer, waitFor } from './train-support/operations-server.js'

type Json = Record<string, unknown>

let server: OperationsServer
const events: { event: string; data: Json }[] = []
let stopLive: () => void

async function live(target: OperationsServer): Promise<() => void> {
  const controller = new AbortController()
  const response = await fetch(`${target.url}/train/live`, {
    headers: { authorization: 'Bearer test-token-0123456789abcdef' },
    signal: controller.signal,
  })
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return
      buffer += decoder.decode(value, { stream: true })
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const frame = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const event = /^event: (.+)$/m.exec(frame)?.[1]
        const data = /^data: (.+)$/m.exec(frame)?.[1]
        if (event && data) events.push({ event, data: JSON.parse(data) as Json })
      }
    }
  })().catch(() => undefined)
  return () => controller.abort()
}

beforeAll(async () => {
  process.env.FAKE_TRAINER_STEP_SECONDS = '0.15'
  server = await startOperationsServer()
})

afterAll(async () => {
  stopLive?.()
  delete process.env.FAKE_TRAINER_STEP_SECONDS
  await server.dispose()
})

describe('training routes', () => {
  it('before any run: idle status, an explanatory log, empty metrics, a plot that says so', async () => {
    expect(await (await server.call('/train/status')).json()).toMatchObject({ state: 'idle', running: false, run_id: null })
    expect(await (await server.call('/train/logs')).text()).toContain('No training log yet')
    expect(await (await server.call('/train/metrics')).json()).toEqual({
      run_id: null,
      status: null,
      global_step: null,
      max_steps: null,
      best: null,
      log_history: [],
    })
    const plot = await server.call('/train/plot.png')
    expect(plot.headers.get('content-type')).toBe('image/png')
  })

  it('HEAD /train/live answers the stream’s headers and ends (no open stream)', async () => {
    const target = new URL(`${server.url}/train/live`)
    // `connection: close`: the server closes the connection once the response ends; an open stream never would.
    const answered = await new Promise<{ status: number; type: string | undefined; bytes: number }>((resolve, reject) => {
      const outgoing = request(
        {
          hostname: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'HEAD',
          agent: false,
          headers: { authorization: 'Bearer test-token-0123456789abcdef', connection: 'close' },
        },
        (reply) => {
          let bytes = 0
          reply.on('data', (chunk: Buffer) => {
            bytes += chunk.length
          })
          reply.socket.once('close', () => resolve({ status: reply.statusCode ?? 0, type: reply.headers['content-type'], bytes }))
        },
      )
      outgoing.on('error', reject)
      outgoing.end()
    })
    expect(answered).toEqual({ status: 200, type: 'text/event-stream; charset=utf-8', bytes: 0 })
  })

  it('follows a run live and then reports it', async () => {
    stopLive = await live(server)
    const start = await server.call('/train/start', { method: 'POST', body: { preset: 'pilot', max_steps: 6, logging_steps: 1 } })
    expect(start.status).toBe(202)
    const started = (await start.json()) as Json
    expect(started).toMatchObject({ started: true, state: 'running', preset: 'pilot', env_id: 'releaseops-v2' })
    expect(started.run_dir).toMatch(/^runs\/\d{8}-\d{6}-pilot-[0-9a-f]{6}$/)
    await waitFor(async () => ((await (await server.call('/train/status')).json()) as Json).state === 'succeeded')
    await waitFor(() => events.some((item) => item.event === 'status' && item.data.state === 'succeeded'))
    await waitFor(
      () =>
        events.filter((item) => item.event === 'metrics').reduce((sum, item) => sum + (item.data.rows as unknown[]).length, 0) >=
        7,
    )

    // Live: rows arrived in pieces (several metrics events), in order, without gaps.
    const metricEvents = events.filter((item) => item.event === 'metrics')
    expect(metricEvents.length).toBeGreaterThan(1)
    let expectedFrom = 0
    for (const item of metricEvents) {
      expect(item.data.from).toBe(expectedFrom)
      expectedFrom += (item.data.rows as unknown[]).length
    }
    const states = events.filter((item) => item.event === 'status').map((item) => item.data.state)
    expect(states).toContain('running')
    expect(states.at(-1)).toBe('succeeded')
    expect(
      events.some((item) => item.event === 'log' && (item.data.lines as string[]).some((line) => line.includes('step 3/6'))),
    ).toBe(true)

    const logs = await (await server.call('/train/logs?lines=20')).text()
    expect(logs).toMatch(/Starting pilot training at/)
    expect(logs).toContain('fake trainer: step 6/6')
    expect(logs).toMatch(/Training succeeded at .*exit code 0/)

    const metrics = (await (await server.call('/train/metrics')).json()) as { log_history: Json[]; global_step: number }
    expect(metrics.global_step).toBe(6)
    expect(metrics.log_history).toHaveLength(7)
    const summary = ((await (await server.call('/train/summary')).json()) as { summary: Json }).summary
    expect(summary).toMatchObject({
      reward_points: 6,
      first_step: 1,
      last_step: 6,
      tool_call_frequency_first: 1.1,
      loss_last: 0.5 / 6,
      train_runtime: 0.1,
    })
    expect(summary.reward_first as number).toBeCloseTo(-0.4, 10)
    expect(summary.reward_last as number).toBeCloseTo(0.1, 10)
    expect(summary.reward_delta as number).toBeCloseTo(0.5, 10)
    expect(summary.reward_max_step).toBe(6)
  }, 180_000) // the first start of a server measures the env's completion budget (a few seconds, more on a loaded machine)

  it('renders the plot of the run as a non-blank PNG', async () => {
    const response = await server.call('/train/plot.png')
    const png = Buffer.from(await response.arrayBuffer())
    const image = await loadImage(png)
    expect([image.width, image.height]).toEqual([900, 36 + 3 * 260])
    const canvas = createCanvas(image.width, image.height)
    const context = canvas.getContext('2d')
    context.drawImage(image, 0, 0)
    const pixels = context.getImageData(0, 0, image.width, image.height).data
    const colors = new Set<number>()
    for (let index = 0; index < pixels.length; index += 4 * 97)
      colors.add((pixels[index]! << 16) | (pixels[index + 1]! << 8) | pixels[index + 2]!)
    expect(colors.size).toBeGreaterThan(8)
    // Each panel drew its curve: the series' own colour appears inside that panel's band.
    const panelHas = (panel: number, color: number) => {
      for (let y = 36 + panel * 260; y < 36 + (panel + 1) * 260; y++) {
        for (let x = 0; x < image.width; x++) {
          const at = (y * image.width + x) * 4
          if (((pixels[at]! << 16) | (pixels[at + 1]! << 8) | pixels[at + 2]!) === color) return true
        }
      }
      return false
    }
    expect([panelHas(0, 0x2563eb), panelHas(1, 0xdc2626), panelHas(2, 0x059669)]).toEqual([true, true, true])
    expect(panelHas(0, 0xdc2626)).toBe(false)
  })

  it('lists the run in the outputs', async () => {
    const runDir = ((await (await server.call('/train/status')).json()) as Json).run_dir as string
    const listing = (await (await server.call(`/outputs/ls?path=${runDir}`)).json()) as { entries: { path: string }[] }
    const paths = listing.entries.map((entry) => entry.path.slice(runDir.length + 1))
    expect(paths).toEqual(
      expect.arrayContaining(['dataset.jsonl', 'metrics.json', 'train.log', 'status.json', 'best_by_reward/best_info.json']),
    )
    const dataset = await (await server.call(`/outputs/file?path=${runDir}/dataset.jsonl`)).text()
    expect(dataset.trim().split('\n')).toHaveLength(2400)
  })
})
