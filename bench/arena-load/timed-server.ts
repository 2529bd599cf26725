/**
 * `releaseops serve --env releaseops-v3` for the Arena load bench, with the server-side step latency
 * recorded: from a WebSocket message's arrival (`message` event) to its reply's `send`, per connection in
 * order (the server answers each connection's messages one at a time, in order). SIGUSR1 starts a
 * measurement window; SIGUSR2 prints `{"server_latency_ms": {p50, p99, max}, "replies": n}` on stdout.
 * Arguments: `<port> [max-sessions]` (the server's default capacity when absent).
 */
import WebSocket from 'ws'
import { envRegistry } from '../../src/envs/index.js'
import { parseServerOptions } from '../../src/server/server-options.js'
import { startServer } from '../../src/server/start-server.js'

const pending = new WeakMap<WebSocket, bigint[]>()
const latencies: number[] = []
let recording = false
const prototype = WebSocket.prototype as unknown as {
  emit: (event: string, ...args: unknown[]) => boolean
  send: (...args: unknown[]) => void
}
const emit = prototype.emit
prototype.emit = function (this: WebSocket, event: string, ...args: unknown[]) {
  if (event === 'message') {
    const queue = pending.get(this) ?? []
    queue.push(process.hrtime.bigint())
    pending.set(this, queue)
  }
  return emit.call(this, event, ...args)
}
const send = prototype.send
prototype.send = function (this: WebSocket, ...args: unknown[]) {
  const arrived = pending.get(this)?.shift()
  if (arrived !== undefined && recording) latencies.push(Number(process.hrtime.bigint() - arrived) / 1e6)
  return send.apply(this, args)
}

process.on('SIGUSR1', () => {
  latencies.length = 0
  recording = true
})
process.on('SIGUSR2', () => {
  recording = false
  const sorted = [...latencies].sort((a, b) => a - b)
  const at = (p: number) => Number((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0).toFixed(3))
  process.stdout.write(
    `${JSON.stringify({ server_latency_ms: { p50: at(0.5), p99: at(0.99), max: at(1) }, replies: sorted.length })}\n`,
  )
})

const [port, maxSessions] = process.argv.slice(2)
const options = parseServerOptions({
  port: Number(port),
  defaultEnvId: 'releaseops-v3',
  ...(maxSessions ? { maxSessions: Number(maxSessions) } : {}),
})
await startServer({ options, registry: envRegistry, registryDefaultEnvId: 'releaseops-v3' })
process.stdout.write('listening\n')
