/**
 * @module train/smoke: talks to the server the way any client would (bearer token, JSON, Server-Sent
 * Events). Replies the smoke reads are parsed with their zod schemas (`smoke-replies.ts`): a reply of
 * the wrong shape is a coded `bad_reply` error naming the route, never a silent cast.
 */
import { createParser } from 'eventsource-parser'
import type { z } from 'zod'
import {
  type ServerCounters,
  type TrainingStatusReply,
  trainingMetricsReplySchema,
  trainingStatusReplySchema,
} from './smoke-replies.js'
import { log, SmokeStepError, sleep } from './smoke-steps.js'

export interface SmokeReply {
  status: number
  /** The parsed JSON body, or the text when it is not JSON (logs). */
  json: unknown
}

export class SmokeClient {
  constructor(
    readonly baseUrl: string,
    private readonly token: string,
  ) {}

  private headers(json: boolean): Record<string, string> {
    return { authorization: `Bearer ${this.token}`, ...(json ? { 'content-type': 'application/json' } : {}) }
  }

  async request(method: string, path: string, body?: unknown, options: { token?: boolean } = {}): Promise<SmokeReply> {
    const headers =
      options.token === false
        ? body === undefined
          ? {}
          : { 'content-type': 'application/json' }
        : this.headers(body !== undefined)
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    let json: unknown = text
    try {
      json = JSON.parse(text)
    } catch {
      // plain text (logs)
    }
    return { status: response.status, json }
  }

  /** A request whose reply must have this shape. */
  async parsed<S extends z.ZodType>(schema: S, method: string, path: string, body?: unknown): Promise<z.infer<S>> {
    return parseReply(schema, `${method} ${path}`, await this.request(method, path, body))
  }

  async bytes(path: string): Promise<Buffer> {
    const response = await fetch(`${this.baseUrl}${path}`, { headers: this.headers(false) })
    if (!response.ok) throw new SmokeStepError('http_failed', `GET ${path}: HTTP ${response.status}`)
    return Buffer.from(await response.arrayBuffer())
  }

  /** Subscribes to `/train/live`; counts events by type until `stop()`. */
  live(): { counts: Record<string, number>; last: Record<string, unknown>; stop: () => void } {
    const controller = new AbortController()
    const counts: Record<string, number> = {}
    const last: Record<string, unknown> = {}
    const parser = createParser({
      onEvent: ({ event, data }) => {
        if (!event || !data) return
        counts[event] = (counts[event] ?? 0) + 1
        last[event] = JSON.parse(data)
      },
    })
    void (async () => {
      const response = await fetch(`${this.baseUrl}/train/live`, { headers: this.headers(false), signal: controller.signal })
      const reader = response.body?.getReader()
      if (!reader) return
      const decoder = new TextDecoder()
      for (;;) {
        const { value, done } = await reader.read()
        if (done) return
        parser.feed(decoder.decode(value, { stream: true }))
      }
    })().catch(() => undefined)
    return { counts, last, stop: () => controller.abort() }
  }
}

/** The reply's body parsed with `schema`; a non-2xx status or a body of another shape is a coded error. */
export function parseReply<S extends z.ZodType>(schema: S, route: string, reply: SmokeReply): z.infer<S> {
  if (reply.status < 200 || reply.status > 299) {
    throw new SmokeStepError('http_failed', `${route}: HTTP ${reply.status} ${JSON.stringify(reply.json).slice(0, 300)}`)
  }
  const parsed = schema.safeParse(reply.json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new SmokeStepError('bad_reply', `${route}: unexpected reply (${issue?.path.join('.') || '(root)'}: ${issue?.message})`)
  }
  return parsed.data
}

/** Polls status and metrics until the run ends, logging each new step. */
export async function waitForEnd(client: SmokeClient, timeoutMs: number): Promise<TrainingStatusReply> {
  const deadline = Date.now() + timeoutMs
  let shown = -1
  for (;;) {
    const status = await client.parsed(trainingStatusReplySchema, 'GET', '/train/status')
    const metrics = await client.parsed(trainingMetricsReplySchema, 'GET', '/train/metrics')
    const step = metrics.global_step ?? -1
    if (step !== shown && step >= 0) {
      shown = step
      log(`step ${step}/${metrics.max_steps ?? '?'} (${status.state}, ${status.elapsed_seconds} s)`)
    }
    if (!status.running) return status
    if (Date.now() > deadline) throw new SmokeStepError('smoke_timeout', `The run did not finish in ${timeoutMs / 1000} s.`)
    await sleep(1000)
  }
}

/** The server's own counters for the env, as the smoke prints them. */
export function printCounters(counters: ServerCounters, envId: string): void {
  const env = counters.envs[envId]
  log(`server-side counters for ${envId} (GET /counters):`)
  if (!env) {
    log('  (no calls)')
    return
  }
  log(`  resets ${env.resets}, steps ${env.steps}, tool calls ${env.tool_calls_total}, rejected calls ${env.tool_errors}`)
  for (const [tool, count] of Object.entries(env.tool_calls).sort((a, b) => b[1] - a[1])) log(`    ${tool.padEnd(20)} ${count}`)
}
