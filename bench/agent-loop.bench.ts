/**
 * Agent-loop overhead per step, written to bench/results/agent-loop.json.
 *
 * phase-aware-rule on the 50 releaseops-v1 eval rows, three ways:
 * - in process, the policy loop (`runPolicyEpisode`): the env's own cost per step;
 * - the agent loop with the policy as an agent (`runEpisode` + `policyAgent`): messages, tool results as
 *   text, records — everything but a model;
 * - the agent loop with the scripted model behind the mock OpenAI-compatible server (`releaseops
 *   mock-llm`, a separate process) over loopback HTTP, per wire mode, with 1 and 8 episodes in flight.
 * Reported: wall µs per step, steps/s, this process's CPU µs per step, model calls/s and their latency
 * percentiles; overhead = HTTP wall per step − in-process per step (same run). Each case is its own process.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { createInterface } from 'node:readline'
import type { ModelMode } from '../dist/agent/chat-model.js'
import { modelAgent } from '../dist/agent/model-agent.js'
import { OpenAiCompatibleModel } from '../dist/agent/openai-compatible-model.js'
import { policyAgent } from '../dist/agent/policy-agent.js'
import { runEpisode } from '../dist/agent/run-episode.js'
import { runPolicyEpisode } from '../dist/agent/run-policy-episode.js'
import { envRegistry, makeEnv, policyRegistry } from '../dist/envs/index.js'
import { latencySummary } from '../dist/eval/percentiles.js'

const envId = 'releaseops-v1'
const policy = 'phase-aware-rule'
const dataset = envRegistry.get(envId).dataset!
const rows = dataset.rows('eval')
const seconds = Number(process.env.BENCH_SECONDS ?? 3)

interface Measured {
  steps: number
  episodes: number
  wall_s: number
  cpu_us: number
  latencies?: number[]
}

function report(label: string, measured: Measured) {
  return {
    case: label,
    episodes: measured.episodes,
    steps: measured.steps,
    steps_per_s: Math.round(measured.steps / measured.wall_s),
    wall_us_per_step: Number(((measured.wall_s * 1e6) / measured.steps).toFixed(1)),
    client_cpu_us_per_step: Number((measured.cpu_us / measured.steps).toFixed(1)),
    ...(measured.latencies
      ? {
          model_calls_per_s: Math.round(measured.latencies.length / measured.wall_s),
          model_call_latency_ms: latencySummary(measured.latencies),
        }
      : {}),
  }
}

async function timed(
  play: (rowIndex: number, worker: number) => Promise<{ steps: number; latencies?: number[] }>,
  concurrency = 1,
): Promise<Measured> {
  for (let index = 0; index < 20; index++) await play(index % rows.length, 0)
  const cpu = process.cpuUsage()
  const started = performance.now()
  let steps = 0
  let episodes = 0
  const latencies: number[] = []
  let next = 0
  const worker = async (id: number) => {
    while (performance.now() - started < seconds * 1000) {
      const result = await play(next++ % rows.length, id)
      steps += result.steps
      episodes++
      if (result.latencies) latencies.push(...result.latencies)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, (_, id) => worker(id)))
  const wall = (performance.now() - started) / 1000
  const used = process.cpuUsage(cpu)
  return { steps, episodes, wall_s: wall, cpu_us: used.user + used.system, ...(latencies.length > 0 ? { latencies } : {}) }
}

async function startMock(format: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ['bin/releaseops.js', 'mock-llm', '--env', envId, '--dataset', 'eval', '--policy', policy, '--format', format, '--no-usage'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve))
  return { url: (JSON.parse(line) as { url: string }).url, child }
}

async function runCase(name: string, mode: string, stream: boolean, concurrency: number) {
  if (name === 'in-process') {
    const env = makeEnv(envId)
    const measured = await timed(async (rowIndex) => ({
      steps: runPolicyEpisode({
        env,
        policy: policyRegistry.create(envId, policy),
        reset: dataset.toResetParams(rows[rowIndex]!),
      }).stepCount,
    }))
    return report('policy loop, in process', measured)
  }
  if (name === 'agent-loop') {
    const env = makeEnv(envId)
    const measured = await timed(async (rowIndex) => {
      const row = rows[rowIndex]!
      const result = await runEpisode({
        env,
        agent: policyAgent(policyRegistry.create(envId, policy)),
        reset: dataset.toResetParams(row),
        prompt: row.prompt,
      })
      return { steps: result.steps.length }
    })
    return report('agent loop, policy agent, in process', measured)
  }
  const mock = await startMock(mode === 'native' ? 'qwen3' : mode)
  try {
    const model = new OpenAiCompatibleModel({
      baseUrl: mock.url,
      model: `scripted-${policy}`,
      mode: mode as ModelMode,
      stream,
      maxConcurrency: concurrency,
    })
    const agent = modelAgent(model)
    const envs = Array.from({ length: concurrency }, () => makeEnv(envId))
    const measured = await timed(async (rowIndex, worker) => {
      const row = rows[rowIndex]!
      const env = envs[worker]!
      const result = await runEpisode({ env, agent, reset: dataset.toResetParams(row), prompt: row.prompt })
      if (result.fault || result.end !== 'terminated') throw new Error(`episode ended ${result.end}: ${result.fault?.message}`)
      return { steps: result.steps.length, latencies: result.turns.map((turn) => turn.latency_ms) }
    }, concurrency)
    return report(`HTTP ${mode}${stream ? ' streamed' : ''}, ${concurrency} in flight`, measured)
  } finally {
    mock.child.kill('SIGTERM')
  }
}

const [flag, name, mode, stream, concurrency] = process.argv.slice(2)
if (flag === '--case') {
  const result = await runCase(name as string, mode as string, stream === 'true', Number(concurrency ?? 1))
  process.stdout.write(JSON.stringify({ ...result, peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024) }))
  process.exit(0)
}

const cases: string[][] = [
  ['in-process', '-', 'false', '1'],
  ['agent-loop', '-', 'false', '1'],
  ['http', 'native', 'false', '1'],
  ['http', 'native', 'true', '1'],
  ['http', 'qwen3', 'false', '1'],
  ['http', 'qwen3.5', 'false', '1'],
  ['http', 'json-tool-calls', 'false', '1'],
  ['http', 'native', 'false', '8'],
  ['http', 'qwen3.5', 'false', '8'],
]
const results: ReturnType<typeof report>[] = []
for (const args of cases) {
  results.push(
    JSON.parse(
      execFileSync(process.execPath, [...process.execArgv, 'bench/agent-loop.bench.ts', '--case', ...args], { encoding: 'utf8' }),
    ),
  )
  process.stderr.write(`${JSON.stringify(results.at(-1))}\n`)
}
const baseline = results[0]!.wall_us_per_step
const overhead = Object.fromEntries(
  results
    .slice(1)
    .map((result) => [
      result.case,
      { wall_us_per_step_over_in_process: Number((result.wall_us_per_step - baseline).toFixed(1)) },
    ]),
)
const output = {
  bench: 'agent-loop',
  created_at: new Date().toISOString(),
  machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model, node: process.version },
  setup: {
    env_id: envId,
    policy,
    rows: rows.length,
    seconds_per_case: seconds,
    server: 'releaseops mock-llm (separate process, no token counting), loopback HTTP',
  },
  results,
  overhead_per_step: overhead,
}
mkdirSync('bench/results', { recursive: true })
writeFileSync('bench/results/agent-loop.json', `${JSON.stringify(output, null, 2)}\n`)
process.stdout.write(`${JSON.stringify(output, null, 2)}\n`)
