/**
 * The two processes of the server-load bench besides the orchestrator (bench/server-load.bench.ts):
 * - `--generator <ws-url> <server|echo> <client|transport>`: opens the sessions, plays the recorded
 *   baseline episodes in a closed loop, prints counts, latencies and CPU use as JSON;
 * - `--echo-server`: a bare `ws` server answering every message with one recorded reply padded to the mean size.
 */
import WebSocket, { WebSocketServer } from 'ws'
import { runPolicyEpisode } from '../../dist/agent/run-policy-episode.js'
import { envRegistry, makeEnv, policyRegistry } from '../../dist/envs/index.js'
import { EnvHost } from '../../dist/server/env-host.js'
import { EnvSession } from '../../dist/server/session/env-session.js'
import { resetSession, stepSession } from '../../dist/server/session/session-operations.js'
import { wsEnvelope } from '../../dist/server/wire/observation-payload.js'
import { closedLoop } from './closed-loop.js'

export const envId = 'releaseops-v1'
const sessions = Number(process.env.BENCH_SESSIONS ?? 256)
const warmupSeconds = Number(process.env.BENCH_WARMUP_S ?? 3)
const measureSeconds = Number(process.env.BENCH_MEASURE_S ?? 10)

export type Variant = 'client' | 'transport'
export type GeneratorResult = Awaited<ReturnType<typeof generate>>

export interface Episode {
  messages: string[]
  replies: Buffer[]
}

/** The baseline episodes: each message and the exact reply our server must send for it. */
export function recordEpisodes(): Episode[] {
  const dataset = envRegistry.get(envId).dataset!
  const host = new EnvHost({ registry: envRegistry, envId, isDefault: true })
  const episodes: Episode[] = []
  for (const policyName of policyRegistry.names(envId)) {
    for (const row of dataset.rows('eval')) {
      const reset = dataset.toResetParams(row)
      const result = runPolicyEpisode({
        env: makeEnv(envId),
        policy: policyRegistry.create(envId, policyName),
        reset,
        recordSteps: true,
      })
      const session = new EnvSession({ id: 'bench', host, kind: 'ws', now: 0 })
      const data = { seed: reset.seed, options: reset.options }
      const messages = [JSON.stringify({ type: 'reset', data })]
      const replies = [Buffer.from(wsEnvelope('observation', resetSession(session, data), undefined))]
      for (const step of result.steps ?? []) {
        const action = { tool: step.call.name, arguments: step.call.arguments }
        messages.push(JSON.stringify({ type: 'step', data: action }))
        replies.push(Buffer.from(wsEnvelope('observation', stepSession(session, { kind: 'tool', call: step.call }), undefined)))
      }
      episodes.push({ messages, replies })
    }
  }
  return episodes
}

/** The load generator: `sessions` closed-loop connections; returns counts, latencies and CPU use. */
export async function generate(url: string, mode: 'server' | 'echo', variant: Variant) {
  const episodes = recordEpisodes()
  const echoBytes = echoReply(episodes).length
  const stepsPerMessage =
    episodes.reduce((sum, episode) => sum + episode.messages.length - 1, 0) /
    episodes.reduce((sum, episode) => sum + episode.messages.length, 0)
  let measuring = false
  let stopped = false
  let messages = 0
  let mismatches = 0
  const latencies: number[] = []
  const connections = await Promise.all(
    Array.from({ length: sessions }, () => {
      const socket = new WebSocket(url, { perMessageDeflate: false, maxPayload: 64 * 1024 * 1024 })
      return new Promise<WebSocket>((resolve, reject) => {
        socket.once('open', () => resolve(socket))
        socket.once('error', reject)
      })
    }),
  )
  const done = connections.map((socket, index) =>
    closedLoop({
      socket,
      episodes,
      start: index,
      stopped: () => stopped,
      onReply: (data, episode, position, latency) => {
        const expected = episode.replies[position] as Buffer
        const ok = mode === 'server' ? data.equals(expected) : data.length === echoBytes
        if (!ok) mismatches++
        if (variant === 'client' && JSON.parse(data.toString()).type !== 'observation') mismatches++
        if (measuring) {
          messages++
          latencies.push(latency)
        }
      },
    }),
  )
  await new Promise((resolve) => setTimeout(resolve, warmupSeconds * 1000))
  measuring = true
  // The orchestrator samples the server's CPU time between this line and the result.
  process.stdout.write('measuring\n')
  const cpuStart = process.cpuUsage()
  const started = process.hrtime.bigint()
  await new Promise((resolve) => setTimeout(resolve, measureSeconds * 1000))
  measuring = false
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  const cpu = process.cpuUsage(cpuStart)
  stopped = true
  await Promise.all(done)
  for (const socket of connections) socket.terminate()
  latencies.sort((a, b) => a - b)
  const percentile = (p: number) =>
    Number((latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0).toFixed(2))
  return {
    messages_per_s: Math.round(messages / seconds),
    steps_per_s: Math.round((messages / seconds) * stepsPerMessage),
    latency_ms: { p50: percentile(0.5), p90: percentile(0.9), p99: percentile(0.99), max: percentile(1) },
    mismatched_replies: mismatches,
    generator_cpu_percent: Math.round(((cpu.user + cpu.system) / 1e6 / seconds) * 100),
    measured_s: Number(seconds.toFixed(2)),
  }
}

/** The recorded reply closest to the mean reply size: what the echo server answers every message with. */
/**
 * What the echo server answers: the recorded reply closest to the mean size, padded (a `pad` field at
 * its end) to exactly the mean size, so both servers send the same bytes per message on average and the
 * generator parses a real reply's structure.
 */
export function echoReply(episodes: Episode[]): Buffer {
  const replies = episodes.flatMap((episode) => episode.replies)
  const mean = Math.round(replies.reduce((sum, reply) => sum + reply.length, 0) / replies.length)
  const base = replies.reduce((best, reply) => (Math.abs(reply.length - mean) < Math.abs(best.length - mean) ? reply : best))
  const text = base.toString()
  const padding = Math.max(0, mean - text.length - ',"pad":""'.length)
  return Buffer.from(`${text.slice(0, -1)},"pad":"${'x'.repeat(padding)}"}`)
}

function echoServer(): void {
  const payload = echoReply(recordEpisodes())
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false, maxPayload: 1024 * 1024 })
  server.on('connection', (socket) => socket.on('message', () => socket.send(payload)))
  process.once('SIGINT', () => process.exit(0))
  server.on('listening', () => {
    const address = server.address() as { port: number }
    process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`)
  })
}

const [mode, first, second, third] = process.argv.slice(2)
if (mode === '--echo-server') {
  echoServer()
} else if (mode === '--generator') {
  const result = await generate(first as string, second as 'server' | 'echo', third as Variant)
  process.stdout.write(JSON.stringify(result))
  process.exit(0)
}
