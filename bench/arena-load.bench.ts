/**
 * 2,048 concurrent Arena sessions on one host (what one VeRL step of 256 prompts × n=8 opens): our server
 * (`releaseops-v3`, its default capacity, one process) and, in the same run, OpenEnv's reference server
 * (its echo env, `uvicorn envs.echo_env.server.app:app` from a checkout, MAX_CONCURRENT_ENVS=sessions).
 * Per server: sessions opened, closed-loop messages/s, client-side p50/p99, RSS during the run (peak), and
 * for ours the server-side step latency (message arrival → reply send, bench/arena-load/timed-server.ts).
 *
 *   BENCH_OPENENV_CHECKOUT=<OpenEnv checkout> BENCH_OPENENV_PYTHON=<python with it installed> \
 *     node --import tsx bench/arena-load.bench.ts      # BENCH_SESSIONS (2048), BENCH_MEASURE_S (10)
 *
 * Without the OpenEnv variables its row is reported as not run. Writes bench/results/arena-load.json.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { loadavg } from 'node:os'
import { join } from 'node:path'

const sessions = Number(process.env.BENCH_SESSIONS ?? 2048)
const root = join(import.meta.dirname, '..')

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

function memory(pid: number): { rss_mb: number; peak_rss_mb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const field = (name: string) =>
    Math.round(Number(/\s(\d+) kB/.exec(status.split('\n').find((line) => line.startsWith(name)) ?? '')?.[1] ?? 0) / 1024)
  return { rss_mb: field('VmRSS'), peak_rss_mb: field('VmHWM') }
}

function lines(child: ChildProcess, onLine: (line: string) => void): void {
  let buffer = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString()
    let index = buffer.indexOf('\n')
    while (index >= 0) {
      onLine(buffer.slice(0, index))
      buffer = buffer.slice(index + 1)
      index = buffer.indexOf('\n')
    }
  })
}

async function waitFor(url: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited with ${child.exitCode}`)
    try {
      if ((await fetch(url)).ok) return
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`${url} never answered`)
}

/** Runs the generator against `url`; `onWindow` hears when the measurement window opens and closes. */
function runGenerator(url: string, target: 'ours' | 'openenv', server: ChildProcess, onWindow: (event: string) => void) {
  return new Promise<Record<string, unknown>>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(root, 'bench/arena-load/arena-load-generator.ts'), '--generator', url, target, String(sessions)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    const samples: number[] = []
    let timer: NodeJS.Timeout | undefined
    lines(child, (line) => {
      if (line === 'measuring') {
        onWindow('start')
        timer = setInterval(() => samples.push(memory(server.pid as number).rss_mb), 500)
      } else if (line === 'measured') {
        clearInterval(timer)
        onWindow('stop')
      } else if (line.startsWith('{'))
        resolve({ ...JSON.parse(line), server_rss_mb_max_sampled: Math.max(...samples), ...memory(server.pid as number) })
    })
    child.once('exit', (code) => code !== 0 && reject(new Error(`generator exited with ${code}`)))
  })
}

async function ours(): Promise<Record<string, unknown>> {
  const port = await freePort()
  const server = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench/arena-load/timed-server.ts'), String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let serverSide: Record<string, unknown> = {}
  lines(server, (line) => {
    if (line.startsWith('{')) serverSide = JSON.parse(line)
  })
  try {
    await waitFor(`http://127.0.0.1:${port}/health`, server)
    const result = await runGenerator(`ws://127.0.0.1:${port}/ws`, 'ours', server, (event) =>
      server.kill(event === 'start' ? 'SIGUSR1' : 'SIGUSR2'),
    )
    await new Promise((resolve) => setTimeout(resolve, 500))
    return { server: 'releaseops serve (releaseops-v3, default capacity)', ...result, ...serverSide }
  } finally {
    server.kill('SIGTERM')
  }
}

async function openenv(): Promise<Record<string, unknown>> {
  const checkout = process.env.BENCH_OPENENV_CHECKOUT
  const python = process.env.BENCH_OPENENV_PYTHON
  if (!checkout || !python)
    return { server: 'OpenEnv echo_env', not_run: 'BENCH_OPENENV_CHECKOUT / BENCH_OPENENV_PYTHON not set' }
  const port = await freePort()
  const server = spawn(
    python,
    ['-m', 'uvicorn', 'envs.echo_env.server.app:app', '--host', '127.0.0.1', '--port', String(port), '--log-level', 'warning'],
    {
      cwd: checkout,
      env: { ...process.env, MAX_CONCURRENT_ENVS: String(sessions), PYTHONPATH: `${join(checkout, 'src')}:${checkout}` },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  try {
    await waitFor(`http://127.0.0.1:${port}/health`, server)
    const result = await runGenerator(`ws://127.0.0.1:${port}/ws`, 'openenv', server, () => {})
    return { server: 'OpenEnv echo_env (uvicorn, one worker)', ...result, server_latency_ms: 'not measured (client-side only)' }
  } finally {
    server.kill('SIGTERM')
  }
}

const load = loadavg()
const results = {
  sessions,
  started: new Date().toISOString(),
  loadavg_1m: Number(load[0]?.toFixed(2)),
  ours: await ours(),
  openenv: await openenv(),
}
mkdirSync(join(root, 'bench/results'), { recursive: true })
writeFileSync(join(root, 'bench/results/arena-load.json'), `${JSON.stringify(results, null, 2)}\n`)
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`)
process.exit(0)
