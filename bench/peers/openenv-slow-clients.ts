/**
 * Slow and greedy clients against `releaseops serve` and OpenEnv's reference server, side by side in one
 * run (issue 35, decision 0067). Writes bench/results/server-slow-clients.json and prints it.
 *
 *   node --import tsx bench/peers/openenv-slow-clients.ts OPENENV_CHECKOUT
 *
 * OpenEnv's server is its echo env (`envs/echo_env`, `create_app` + uvicorn) run from the checkout with
 * `OPENENV_PYTHON` (default /tmp/openenv-acceptance-venv/bin/python: `scripts/acceptance/openenv.sh`
 * makes that venv), `MAX_CONCURRENT_ENVS=4096` (our default session limit). Both servers run with their
 * default settings otherwise. Attacks, each on both servers in turn (ours first, then OpenEnv's):
 * - `idle`: nothing; the /health baseline;
 * - `slow-headers`: 200 connections from one address sending a header line every 2 s, for 20 s;
 * - `slow-body`: 450 connections from one address, each `POST /step` with `Content-Length: 100000`
 *   and then 1 byte every 5 s, for 40 s, the servers started under `ulimit -n 400` (the case);
 * - `sessions`: one address opens 2,700 WebSocket sessions (`/ws`, a reset each; our share is 2,560) one
 *   after the other, then holds them for 5 s.
 * Meanwhile a prober on another address GETs /health every 100 ms (2 s timeout). Reported per server and
 * attack: /health p50/p99/max, probes answered, share within 100 ms; attackers cut, by status, and the
 * median time to the cut; sessions obtained and refused. The machine is shared and noisy: compare the
 * two servers within a run, not runs with each other.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { connect, createServer, type Socket } from 'node:net'
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import WebSocket from 'ws'

const checkout = resolve(process.argv[2] ?? '')
if (!process.argv[2]) throw new Error('usage: node --import tsx bench/peers/openenv-slow-clients.ts OPENENV_CHECKOUT')
const python = process.env.OPENENV_PYTHON ?? '/tmp/openenv-acceptance-venv/bin/python'
const repository = resolve(import.meta.dirname, '..', '..')
const prober = '127.0.0.1'

interface Target {
  name: 'releaseops' | 'openenv'
  url: string
  stop: () => void
}

const freePort = () =>
  new Promise<number>((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => done(port))
    })
  })

async function waitHealthy(url: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited (${child.exitCode})`)
    if ((await probe(url)).ok) return
    await sleep(200)
  }
  throw new Error(`${url} did not become healthy`)
}

async function start(name: Target['name'], fdLimit: number | undefined): Promise<Target> {
  const port = await freePort()
  const limit = fdLimit ? `ulimit -n ${fdLimit} && ` : ''
  const command =
    name === 'releaseops'
      ? `${limit}exec ${process.execPath} --import tsx src/cli/run.ts serve --port ${port}`
      : `${limit}exec ${python} -m uvicorn envs.echo_env.server.app:app --host 127.0.0.1 --port ${port} --log-level warning`
  const child = spawn('sh', ['-c', command], {
    cwd: name === 'releaseops' ? repository : checkout,
    env: { ...process.env, MAX_CONCURRENT_ENVS: '4096' },
    stdio: ['ignore', 'ignore', 'ignore'],
  })
  const url = `http://127.0.0.1:${port}`
  await waitHealthy(url, child)
  return { name, url, stop: () => child.kill('SIGKILL') }
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

/** One GET /health from the prober's address: its latency, or not ok (error or 2 s timeout). */
function probe(url: string): Promise<{ ok: boolean; ms: number }> {
  const started = performance.now()
  return new Promise((done) => {
    const outgoing = request(`${url}/health`, { agent: false, localAddress: prober, timeout: 2000 }, (reply) => {
      reply.resume()
      reply.on('end', () => done({ ok: reply.statusCode === 200, ms: performance.now() - started }))
    })
    outgoing.on('timeout', () => outgoing.destroy(new Error('timeout')))
    outgoing.on('error', () => done({ ok: false, ms: performance.now() - started }))
    outgoing.end()
  })
}

/** Probes /health every 100 ms until `stop()`; resolves the figures. */
function prober100ms(url: string) {
  const samples: { ok: boolean; ms: number }[] = []
  let running = true
  const done = (async () => {
    while (running) {
      const started = performance.now()
      samples.push(await probe(url))
      await sleep(Math.max(0, 100 - (performance.now() - started)))
    }
  })()
  return async () => {
    running = false
    await done
    const answered = samples.filter((sample) => sample.ok).map((sample) => sample.ms)
    const sorted = [...answered].sort((a, b) => a - b)
    const at = (q: number) => round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN)
    return {
      probes: samples.length,
      answered: answered.length,
      within_100ms: round(answered.filter((ms) => ms <= 100).length / Math.max(1, samples.length)),
      p50_ms: at(0.5),
      p99_ms: at(0.99),
      max_ms: answered.length ? round(Math.max(...answered)) : null,
    }
  }
}

const round = (value: number) => Math.round(value * 100) / 100

/** Raw attacker connections; each records when and how the server ended it. */
function attackers(options: { url: string; count: number; from: string; open: (socket: Socket) => NodeJS.Timeout }) {
  const { port } = new URL(options.url)
  return Array.from({ length: options.count }, () => {
    const started = performance.now()
    const state = { endedAfterS: undefined as number | undefined, status: 'none', timer: undefined as NodeJS.Timeout | undefined }
    const socket = connect({ port: Number(port), host: '127.0.0.1', localAddress: options.from })
    let head = ''
    socket.on('connect', () => {
      state.timer = options.open(socket)
    })
    socket.on('data', (chunk: Buffer) => {
      if (head.length < 64) head += chunk.toString('latin1')
      state.status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? state.status
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      state.endedAfterS = (performance.now() - started) / 1000
      clearInterval(state.timer)
    })
    return { socket, state }
  })
}

function attackReport(list: ReturnType<typeof attackers>) {
  const ended = list.filter(({ state }) => state.endedAfterS !== undefined)
  const byStatus: Record<string, number> = {}
  const timesByStatus: Record<string, number[]> = {}
  for (const { state } of ended) {
    byStatus[state.status] = (byStatus[state.status] ?? 0) + 1
    timesByStatus[state.status] = [...(timesByStatus[state.status] ?? []), state.endedAfterS as number]
  }
  const median = (times: number[]) => {
    const sorted = [...times].sort((a, b) => a - b)
    return sorted.length ? round(sorted[Math.floor(sorted.length / 2)] as number) : null
  }
  return {
    connections: list.length,
    cut_by_server: ended.length,
    still_open: list.length - ended.length,
    // `none`: closed with no reply at all (e.g. accepted and closed at once by a server out of descriptors).
    cut_by_status: byStatus,
    median_s_to_cut: median(ended.map(({ state }) => state.endedAfterS as number)),
    // One median over 408s and early 429s says little; each status has its own.
    median_s_to_cut_by_status: Object.fromEntries(
      Object.entries(timesByStatus).map(([status, times]) => [status, median(times)]),
    ),
  }
}

async function slowAttack(target: Target, kind: 'headers' | 'body', count: number, seconds: number) {
  const stop = prober100ms(target.url)
  const list = attackers({
    url: target.url,
    count,
    from: kind === 'headers' ? '127.0.0.2' : '127.0.0.3',
    open: (socket) => {
      if (kind === 'headers') {
        socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n')
        return setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 2000)
      }
      socket.write('POST /step HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{')
      return setInterval(() => socket.writable && socket.write(' '), 5000)
    },
  })
  await sleep(seconds * 1000)
  const report = { health: await stop(), attackers: attackReport(list) }
  for (const { socket } of list) socket.destroy()
  await sleep(1000)
  return report
}

async function sessionAttack(target: Target, attempts: number) {
  const stop = prober100ms(target.url)
  const sockets: WebSocket[] = []
  const refusals: Record<string, number> = {}
  let obtained = 0
  for (let index = 0; index < attempts; index++) {
    const outcome = await new Promise<string>((done) => {
      const socket = new WebSocket(`${target.url.replace('http', 'ws')}/ws`, { localAddress: '127.0.0.4' })
      sockets.push(socket)
      const timer = setTimeout(() => done('timeout'), 10_000)
      socket.on('open', () => socket.send(JSON.stringify({ type: 'reset' })))
      socket.on('message', (data) => {
        clearTimeout(timer)
        const reply = JSON.parse(data.toString()) as { type: string; data?: { code?: string; error_code?: string } }
        done(reply.type === 'observation' ? 'ok' : (reply.data?.error_code ?? reply.data?.code ?? reply.type))
      })
      socket.on('error', () => {
        clearTimeout(timer)
        done('error')
      })
      socket.on('unexpected-response', (_request, response) => {
        clearTimeout(timer)
        done(`http_${response.statusCode}`)
      })
    })
    if (outcome === 'ok') obtained++
    else refusals[outcome] = (refusals[outcome] ?? 0) + 1
  }
  await sleep(5000)
  const report = { health: await stop(), attempts, obtained, refused: refusals }
  for (const socket of sockets) socket.terminate()
  await sleep(2000)
  return report
}

async function onBoth<T>(fdLimit: number | undefined, run: (target: Target) => Promise<T>): Promise<Record<string, T>> {
  const results: Record<string, T> = {}
  for (const name of ['releaseops', 'openenv'] as const) {
    const target = await start(name, fdLimit)
    try {
      results[name] = await run(target)
    } finally {
      target.stop()
    }
    process.stderr.write(`  ${name} done\n`)
  }
  return results
}

const results = {
  openenv_checkout: checkout,
  load_average_at_start: loadavg().map(round),
  idle: await onBoth(undefined, async (target) => {
    const stop = prober100ms(target.url)
    await sleep(5000)
    return { health: await stop() }
  }),
  'slow-headers': await onBoth(undefined, (target) => slowAttack(target, 'headers', 200, 20)),
  'slow-body (ulimit -n 400, 450 connections)': await onBoth(400, (target) => slowAttack(target, 'body', 450, 40)),
  sessions: await onBoth(undefined, (target) => sessionAttack(target, 2700)),
  load_average_at_end: loadavg().map(round),
}
mkdirSync(resolve(repository, 'bench/results'), { recursive: true })
writeFileSync(resolve(repository, 'bench/results/server-slow-clients.json'), `${JSON.stringify(results, null, 2)}\n`)
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`)
