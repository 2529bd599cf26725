/**
 * Server load on loopback, written to bench/results/server-load.json.
 *
 * 256 concurrent WebSocket sessions (closed loop, no think time) play baseline episodes of
 * releaseops-v1 (the 50 eval rows × naive / rule / phase-aware-rule; the baseline's calls are recorded
 * in process and every reply is checked byte for byte against the in-process env's, so each session
 * sees exactly the observations its policy acted on) against `releaseops serve` in its own process,
 * and — in the same run, with the same traffic — against a bare `ws` echo server that answers every
 * message with one real reply padded to the mean reply size. Server and load generator are separate processes
 * on two cores (BENCH_PIN=1 pins them to one core each with taskset), so the generator cannot starve the server.
 *
 * Two generators, both reported:
 * - `client`: parses every reply (JSON.parse), as any client playing an episode must (OpenEnv's
 *   EnvClient, TRL, our client). Cases: our server as one process, as `--workers 2`, and the echo.
 * - `transport`: compares bytes only (the least a generator can do), so the echo server runs at its
 *   ceiling; this isolates the server's own cost per message.
 * Reported per case: messages/s, steps/s, p50/p90/p99/max latency, server RSS, CPU use of server and
 * generator during the measured window, and server CPU µs per message (the figure that does not depend
 * on what else the shared machine runs). Cases alternate `BENCH_RUNS` times; medians are reported.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { echoReply, envId, type GeneratorResult, recordEpisodes, type Variant } from './server-load/load-generator.js'

const sessions = Number(process.env.BENCH_SESSIONS ?? 256)
const warmupSeconds = Number(process.env.BENCH_WARMUP_S ?? 3)
const measureSeconds = Number(process.env.BENCH_MEASURE_S ?? 10)
const runs = Number(process.env.BENCH_RUNS ?? 3)
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number

const generatorScript = 'bench/server-load/load-generator.ts'
/** Extra node flags for the server process (e.g. BENCH_SERVER_NODE_FLAGS=--max-semi-space-size=64). */
const serverNodeFlags = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean)

/** BENCH_PIN=1 pins server and generator to one core each; off by default, since on a shared machine a
 * pinned process cannot move away from someone else's busy core. */
const pinnable = (() => {
  if (process.env.BENCH_PIN !== '1') return false
  try {
    execFileSync('taskset', ['-c', '0', 'true'])
    return cpus().length >= 2
  } catch {
    return false
  }
})()

function pinned(core: number, command: string[]): string[] {
  return pinnable ? ['taskset', '-c', String(core), ...command] : command
}

function startProcess(command: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(command[0] as string, command.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    let output = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening on (http:\/\/\S+)/.exec(output)
      if (match) resolve({ child, url: match[1] as string })
    })
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)))
  })
}

/** CPU seconds a process has used so far (utime + stime from /proc). */
/** A process and its descendants (a `--workers` primary and its workers). */
function processTree(pid: number): number[] {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
  )
  return [pid, ...children.flatMap(processTree)]
}

/** CPU seconds a process tree has used so far (utime + stime from /proc). */
function cpuSeconds(pid: number): number {
  let total = 0
  for (const member of processTree(pid)) {
    const fields = readFileSync(`/proc/${member}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    total += (Number(fields[11]) + Number(fields[12])) / 100
  }
  return total
}

/** Resident memory of a process tree, summed. */
function memory(pid: number): { rss_mb: number; peak_rss_mb: number } {
  let rss = 0
  let peak = 0
  for (const member of processTree(pid)) {
    const status = readFileSync(`/proc/${member}/status`, 'utf8')
    const read = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024
    rss += read('VmRSS')
    peak += read('VmHWM')
  }
  return { rss_mb: Math.round(rss), peak_rss_mb: Math.round(peak) }
}

type CaseMode = 'server' | 'workers' | 'echo'

async function runCase(mode: CaseMode, variant: Variant) {
  const serverCommand =
    mode !== 'echo'
      ? [
          process.execPath,
          ...serverNodeFlags,
          'bin/releaseops.js',
          'serve',
          '--port',
          '0',
          '--env',
          envId,
          '--max-sessions',
          String(sessions * 2),
          '--log-level',
          'silent',
          ...(mode === 'workers' ? ['--workers', '2'] : []),
        ]
      : [process.execPath, ...process.execArgv, generatorScript, '--echo-server']
  const target = await startProcess(pinned(0, serverCommand))
  const pid = target.child.pid as number
  const url = `${target.url.replace(/^http/, 'ws')}${mode === 'echo' ? '/' : `/envs/${envId}/ws`}`
  const generatorCommand = pinned(1, [
    process.execPath,
    ...process.execArgv,
    generatorScript,
    '--generator',
    url,
    mode === 'echo' ? 'echo' : 'server',
    variant,
  ])
  const generator = spawn(generatorCommand[0] as string, generatorCommand.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] })
  let output = ''
  let window: { cpu: number; at: number } | undefined
  generator.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
    if (!window && output.startsWith('measuring\n')) window = { cpu: cpuSeconds(pid), at: performance.now() }
  })
  await new Promise((resolve) => generator.once('exit', resolve))
  const measured = window as { cpu: number; at: number }
  const serverCpuSeconds = cpuSeconds(pid) - measured.cpu
  const serverCpu = Math.round((serverCpuSeconds / ((performance.now() - measured.at) / 1000)) * 100)
  const serverMemory = memory(pid)
  target.child.kill('SIGTERM')
  await new Promise((resolve) => target.child.once('exit', resolve))
  const result = JSON.parse(output.slice('measuring\n'.length)) as GeneratorResult
  // CPU time per message does not depend on what else the machine runs: the contention-free cost.
  const messages = result.messages_per_s * result.measured_s
  const serverCpuMicroseconds = Number(((serverCpuSeconds * 1e6) / messages).toFixed(1))
  return {
    ...result,
    server_cpu_percent: serverCpu,
    server_cpu_us_per_message: serverCpuMicroseconds,
    server_memory: serverMemory,
  }
}

async function main(): Promise<void> {
  if (!existsSync('dist/server/build-server.js')) throw new Error('Run `npm run build` first.')
  // Other work on the machine shares its cores; the load average says how much.
  const loadAtStart = loadavg().map((value) => Number(value.toFixed(2)))
  const episodes = recordEpisodes()
  const replySizes = episodes.flatMap((episode) => episode.replies.map((reply) => reply.length))
  type CaseResult = Awaited<ReturnType<typeof runCase>>
  const summarize = (results: CaseResult[]) => ({
    messages_per_s: median(results.map((result) => result.messages_per_s)),
    steps_per_s: median(results.map((result) => result.steps_per_s)),
    latency_p50_ms: median(results.map((result) => result.latency_ms.p50)),
    latency_p99_ms: median(results.map((result) => result.latency_ms.p99)),
    server_cpu_percent: median(results.map((result) => result.server_cpu_percent)),
    server_cpu_us_per_message: median(results.map((result) => result.server_cpu_us_per_message)),
    generator_cpu_percent: median(results.map((result) => result.generator_cpu_percent)),
    server_rss_mb: median(results.map((result) => result.server_memory.rss_mb)),
    server_peak_rss_mb: Math.max(...results.map((result) => result.server_memory.peak_rss_mb)),
    mismatched_replies: results.reduce((sum, result) => sum + result.mismatched_replies, 0),
    runs: results,
  })
  const variants: Record<string, unknown> = {}
  const selected = (process.env.BENCH_VARIANTS ?? 'client,transport').split(',') as Variant[]
  for (const variant of selected) {
    // One process against the echo server; with the client generator, also `--workers 2` (both cores).
    const modes: CaseMode[] = variant === 'client' ? ['server', 'workers', 'echo'] : ['server', 'echo']
    const results: Record<CaseMode, CaseResult[]> = { server: [], workers: [], echo: [] }
    for (let run = 0; run < runs; run++) {
      for (const mode of modes) {
        const result = await runCase(mode, variant)
        results[mode].push(result)
        process.stderr.write(`${variant} ${mode} #${run + 1}: ${result.messages_per_s} msg/s, p99 ${result.latency_ms.p99} ms\n`)
      }
    }
    const ours = summarize(results.server)
    const bare = summarize(results.echo)
    const workers = results.workers.length > 0 ? summarize(results.workers) : undefined
    variants[variant] = {
      releaseops_server: ours,
      ...(workers ? { releaseops_server_2_workers: workers } : {}),
      bare_ws_echo: bare,
      throughput_ratio_vs_echo: Number((ours.messages_per_s / bare.messages_per_s).toFixed(3)),
      ...(workers
        ? { throughput_ratio_2_workers_vs_echo: Number((workers.messages_per_s / bare.messages_per_s).toFixed(3)) }
        : {}),
      server_cpu_cost_ratio_echo_over_ours: Number((bare.server_cpu_us_per_message / ours.server_cpu_us_per_message).toFixed(3)),
      bars: {
        throughput_at_least_half_of_echo: ours.messages_per_s >= bare.messages_per_s / 2,
        p99_under_25_ms: ours.latency_p99_ms < 25,
        ...(workers
          ? {
              with_2_workers: {
                throughput_at_least_half_of_echo: workers.messages_per_s >= bare.messages_per_s / 2,
                p99_under_25_ms: workers.latency_p99_ms < 25,
              },
            }
          : {}),
        every_reply_byte_identical: ours.mismatched_replies === 0 && (workers?.mismatched_replies ?? 0) === 0,
      },
    }
  }
  const report = {
    bench: 'server-load',
    created_at: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      cpu_model: cpus()[0]?.model,
      node: process.version,
      pinned_one_core_each: pinnable,
      load_average_at_start: loadAtStart,
      load_average_at_end: loadavg().map((value) => Number(value.toFixed(2))),
    },
    setup: {
      env_id: envId,
      concurrent_sessions: sessions,
      traffic: 'closed loop, no think time; baseline episodes (50 eval rows × naive/rule/phase-aware-rule) over /ws',
      episodes: episodes.length,
      warmup_s: warmupSeconds,
      measure_s: measureSeconds,
      runs,
      server_node_flags: serverNodeFlags,
      mean_reply_bytes: Math.round(replySizes.reduce((sum, size) => sum + size, 0) / replySizes.length),
      echo_reply_bytes: echoReply(episodes).length,
      echo_server: 'bare ws WebSocketServer answering each message with one recorded reply padded to the mean reply size',
    },
    generators: variants,
  }
  mkdirSync('bench/results', { recursive: true })
  writeFileSync('bench/results/server-load.json', `${JSON.stringify(report, null, 2)}\n`)
  const brief = JSON.parse(JSON.stringify(report, (key, value) => (key === 'runs' && Array.isArray(value) ? undefined : value)))
  process.stdout.write(`${JSON.stringify(brief, null, 2)}\n`)
}

await main()
