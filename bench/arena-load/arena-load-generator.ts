/**
 * The load generator of bench/arena-load.bench.ts: `--generator <ws-url> <ours|openenv> <sessions>`. Opens
 * `sessions` WebSocket sessions at once (one connection = one session), then plays closed-loop episodes on
 * each for BENCH_MEASURE_S seconds after BENCH_WARMUP_S: on ours, recorded Arena (`releaseops-v3`) episodes
 * of the baseline policies, every reply compared byte for byte with the in-process env's; on OpenEnv's
 * echo env, `reset` then `call_tool echo_message` steps. Prints one JSON line: sessions opened and refused,
 * messages/s, client-side latency percentiles, mismatched replies.
 */
import WebSocket from 'ws'
import { runPolicyEpisode } from '../../src/agent/run-policy-episode.js'
import { envRegistry, makeEnv, policyRegistry } from '../../src/envs/index.js'
import { EnvHost } from '../../src/server/env-host.js'
import { EnvSession } from '../../src/server/session/env-session.js'
import { resetSession, stepSession } from '../../src/server/session/session-operations.js'
import { wsEnvelope } from '../../src/server/wire/observation-payload.js'
import { closedLoop } from '../server-load/closed-loop.js'

export const arenaEnvId = 'releaseops-v3'
const warmupSeconds = Number(process.env.BENCH_WARMUP_S ?? 3)
const measureSeconds = Number(process.env.BENCH_MEASURE_S ?? 10)

interface Episode {
  messages: string[]
  replies: Buffer[] | null
}

/** Arena episodes of the baseline policies on the first eval rows, with the exact replies our server sends. */
function arenaEpisodes(rows = 20): Episode[] {
  const dataset = envRegistry.get(arenaEnvId).dataset!
  const host = new EnvHost({ registry: envRegistry, envId: arenaEnvId, isDefault: true })
  const episodes: Episode[] = []
  for (const policyName of ['evidence-heuristic', 'phase-aware-rule', 'rule']) {
    for (const row of dataset.rows('eval').slice(0, rows)) {
      const reset = dataset.toResetParams(row)
      const result = runPolicyEpisode({
        env: makeEnv(arenaEnvId),
        policy: policyRegistry.create(arenaEnvId, policyName),
        reset,
        recordSteps: true,
      })
      const session = new EnvSession({ id: 'bench', host, kind: 'ws', now: 0 })
      const data = { seed: reset.seed, options: reset.options }
      const messages = [JSON.stringify({ type: 'reset', data })]
      const replies = [Buffer.from(wsEnvelope('observation', resetSession(session, data), undefined))]
      for (const step of result.steps ?? []) {
        messages.push(JSON.stringify({ type: 'step', data: { tool: step.call.name, arguments: step.call.arguments } }))
        replies.push(Buffer.from(wsEnvelope('observation', stepSession(session, { kind: 'tool', call: step.call }), undefined)))
      }
      episodes.push({ messages, replies })
    }
  }
  return episodes
}

/** OpenEnv's echo env: a reset and eight MCP echo calls (what its MCPToolClient sends on /ws). */
function echoEpisodes(): Episode[] {
  const step = (index: number) =>
    JSON.stringify({
      type: 'step',
      data: { type: 'call_tool', tool_name: 'echo_message', arguments: { message: `message ${index} ${'x'.repeat(200)}` } },
    })
  return [
    {
      messages: [JSON.stringify({ type: 'reset', data: {} }), ...Array.from({ length: 8 }, (_, index) => step(index))],
      replies: null,
    },
  ]
}

function open(url: string): Promise<WebSocket | null> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { perMessageDeflate: false, maxPayload: 64 * 1024 * 1024 })
    socket.once('open', () => resolve(socket))
    socket.once('error', () => resolve(null))
    socket.once('unexpected-response', () => resolve(null))
  })
}

export async function generate(url: string, target: 'ours' | 'openenv', sessions: number) {
  const episodes = target === 'ours' ? arenaEpisodes() : echoEpisodes()
  let measuring = false
  let stopped = false
  let messages = 0
  let mismatches = 0
  let closedEarly = 0
  const latencies: number[] = []
  // Opened in waves of 256, so the accept queue is not the thing measured.
  const sockets: (WebSocket | null)[] = []
  for (let start = 0; start < sessions; start += 256)
    sockets.push(...(await Promise.all(Array.from({ length: Math.min(256, sessions - start) }, () => open(url)))))
  const connections = sockets.filter((socket): socket is WebSocket => socket !== null)
  for (const socket of connections)
    socket.on('close', () => {
      if (!stopped) closedEarly++
    })
  const done = connections.map((socket, index) =>
    closedLoop({
      socket,
      episodes,
      start: index,
      stopped: () => stopped,
      onReply: (data, episode, position, latency) => {
        const expected = episode.replies?.[position]
        const ok = expected ? data.equals(expected) : JSON.parse(data.toString()).type === 'observation'
        if (!ok) mismatches++
        if (measuring) {
          messages++
          latencies.push(latency)
        }
      },
    }),
  )
  await new Promise((resolve) => setTimeout(resolve, warmupSeconds * 1000))
  measuring = true
  process.stdout.write('measuring\n')
  const started = process.hrtime.bigint()
  await new Promise((resolve) => setTimeout(resolve, measureSeconds * 1000))
  measuring = false
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  process.stdout.write('measured\n')
  stopped = true
  await Promise.race([Promise.all(done), new Promise((resolve) => setTimeout(resolve, 10_000))])
  for (const socket of connections) socket.terminate()
  latencies.sort((a, b) => a - b)
  const percentile = (p: number) =>
    Number((latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0).toFixed(2))
  return {
    sessions_requested: sessions,
    sessions_opened: connections.length,
    sessions_closed_early: closedEarly,
    messages_per_s: Math.round(messages / seconds),
    client_latency_ms: { p50: percentile(0.5), p99: percentile(0.99), max: percentile(1) },
    mismatched_replies: mismatches,
    measured_s: Number(seconds.toFixed(2)),
  }
}

const [mode, url, target, sessions] = process.argv.slice(2)
if (mode === '--generator') {
  const result = await generate(url as string, target as 'ours' | 'openenv', Number(sessions))
  process.stdout.write(`${JSON.stringify(result)}\n`)
  process.exit(0)
}
