/**
 * `/health` latency while JSON-RPC batches are answered (issue 18 item 2), written to
 * bench/results/server-batch.json. `releaseops serve` runs in its own process; in this one a prober
 * GETs `/health` back to back (one request in flight) for BENCH_WINDOW_S seconds per case:
 * - `idle`: nothing else;
 * - `max-batch`: a client posts maximal allowed batches (`--max-batch-size`, default 100 `tools/call`
 *   on one session) back to back the whole window;
 * - `refused-7000`: a client posts 7,000-call batches (~0.8 MB bodies, under the body limit) back to
 *   with 100 ms between them; each is refused by the count cap (checked: the reply is `batch_too_large`);
 * - `refused-7000-flood`: the same back to back (the server then does little but JSON.parse 0.8 MB
 *   bodies: any body near the limit does that; the body limit, not the batch cap, bounds it).
 * Reported per case: /health p50/p99/max (ms), probes, batches answered and their mean duration.
 * Run: node --import tsx bench/server-batch.bench.ts
 */
import { spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'

const windowSeconds = Number(process.env.BENCH_WINDOW_S ?? 4)
const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] as number

function startServer(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/run.ts', 'serve', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((resolve) => {
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening on (http:\/\/\S+)/.exec(output)
      if (match) resolve({ url: match[1] as string, stop: () => child.kill('SIGTERM') })
    })
  })
}

const post = (url: string, body: string) =>
  fetch(`${url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then((reply) => reply.text())

function batchBody(count: number, sessionId?: string): string {
  const calls = Array.from({ length: count }, (_, index) => ({
    jsonrpc: '2.0',
    id: index + 1,
    method: 'tools/call',
    params: { name: 'inspect_ticket', arguments: { ticket_id: `t${index}` }, ...(sessionId ? { session_id: sessionId } : {}) },
  }))
  return JSON.stringify(calls)
}

async function runCase(url: string, load: (() => Promise<unknown>) | undefined) {
  const deadline = performance.now() + windowSeconds * 1000
  const batchTimes: number[] = []
  const loader = (async () => {
    while (load && performance.now() < deadline) {
      const started = performance.now()
      await load()
      batchTimes.push(performance.now() - started)
    }
  })()
  const probes: number[] = []
  while (performance.now() < deadline) {
    const started = performance.now()
    await (await fetch(`${url}/health`)).arrayBuffer()
    probes.push(performance.now() - started)
  }
  await loader
  const round = (value: number) => Math.round(value * 100) / 100
  return {
    health_p50_ms: round(quantile(probes, 0.5)),
    health_p99_ms: round(quantile(probes, 0.99)),
    health_max_ms: round(Math.max(...probes)),
    probes: probes.length,
    batches: batchTimes.length,
    batch_mean_ms: batchTimes.length ? round(batchTimes.reduce((a, b) => a + b, 0) / batchTimes.length) : null,
  }
}

const server = await startServer()
try {
  // Every call of a maximal batch is a real step: a fresh session per batch keeps the episode running.
  const newSession = async () =>
    JSON.parse(await post(server.url, JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'openenv/session/create' }))).result
      .session_id as string
  // The shape: 7,000 calls under the 1 MiB body limit (no session: each would be a temporary env).
  const refused = batchBody(7000)
  const refuse = async () => {
    const reply = await post(server.url, refused)
    if (!reply.includes('batch_too_large')) throw new Error(`not refused by the cap: ${reply.slice(0, 200)}`)
  }
  const results = {
    window_s: windowSeconds,
    max_batch_size: 100,
    refused_body_bytes: refused.length,
    idle: await runCase(server.url, undefined),
    'max-batch': await runCase(server.url, async () => post(server.url, batchBody(100, await newSession()))),
    'refused-7000': await runCase(server.url, async () => {
      await refuse()
      await new Promise((resolve) => setTimeout(resolve, 100))
    }),
    'refused-7000-flood': await runCase(server.url, refuse),
  }
  mkdirSync('bench/results', { recursive: true })
  writeFileSync('bench/results/server-batch.json', `${JSON.stringify(results, null, 2)}\n`)
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`)
} finally {
  server.stop()
}
