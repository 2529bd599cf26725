/**
 * releaseops-v2 throughput next to v1, written to bench/results/env-throughput-v2.json. Every figure and
 * ratio comes from this one run; each case runs in its own child process (medians of timed runs after a
 * warm-up, peak RSS per case).
 *
 * - in-process episodes/s and steps/s per policy over the 500 v2 eval rows (1 thread; phase-aware-rule
 *   and oracle also with 2), and v1's phase-aware-rule over its 50 eval rows for the ratio;
 * - resets/s: v2 builds a scenario and proves it winnable (the oracle plays it) on every reset;
 * - phase-aware-rule with every observation rendered to text and parsed back (how a text-only client reads it);
 * - `releaseops eval --env releaseops-v2` end to end (process start to exit).
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { runPolicyEpisode } from '../dist/agent/run-policy-episode.js'
import type { Env, Observation, StepResult } from '../dist/core/env/env-api.js'
import { envRegistry, makeEnv, policyRegistry } from '../dist/envs/index.js'
import { runEval } from '../dist/eval/run-eval.js'

const episodesPerRun = Number(process.env.BENCH_EPISODES ?? 40_000)
const runs = Number(process.env.BENCH_RUNS ?? 3)
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number
const rowsOf = (envId: string) => envRegistry.get(envId).dataset!.rows('eval')
const repeated = (envId: string, count: number) => {
  const rows = rowsOf(envId)
  return Array.from({ length: count }, (_, index) => rows[index % rows.length]!)
}

async function inProcess(envId: string, policy: string, workers: number) {
  const rows = repeated(envId, episodesPerRun)
  await runEval({ envId, rows: rows.slice(0, 5000), policies: [policy], workers })
  const samples: { episodes: number; steps: number }[] = []
  for (let run = 0; run < runs; run++) {
    const started = performance.now()
    const records = await runEval({ envId, rows, policies: [policy], workers })
    const seconds = (performance.now() - started) / 1000
    const steps = records.reduce((total, record) => total + record.step_count, 0)
    samples.push({ episodes: records.length / seconds, steps: steps / seconds })
  }
  return {
    env_id: envId,
    policy,
    workers,
    episodes_per_run: rows.length,
    runs,
    episodes_per_s: Math.round(median(samples.map((sample) => sample.episodes))),
    steps_per_s: Math.round(median(samples.map((sample) => sample.steps))),
  }
}

function resets(envId: string) {
  const dataset = envRegistry.get(envId).dataset!
  const params = rowsOf(envId).map((row) => dataset.toResetParams(row))
  const env = makeEnv(envId)
  const play = (count: number) => {
    for (let index = 0; index < count; index++) env.reset(params[index % params.length]!)
  }
  play(5000)
  const samples: number[] = []
  for (let run = 0; run < runs; run++) {
    const started = performance.now()
    play(episodesPerRun)
    samples.push(episodesPerRun / ((performance.now() - started) / 1000))
  }
  return { env_id: envId, resets_per_s: Math.round(median(samples)) }
}

/** Every observation goes through `render` and JSON.parse before the policy sees it. */
function textRoundTrip(envId: string) {
  const env = makeEnv<Observation>(envId)
  const roundTrip = (observation: Observation): Observation => ({
    ...observation,
    view: JSON.parse(env.render({ view: observation.view } as never)),
  })
  const wrapped: Env<Observation> = {
    spec: env.spec,
    reset: (params) => {
      const result = env.reset(params)
      return { ...result, observation: roundTrip(result.observation) }
    },
    step: (call): StepResult<Observation> => {
      const result = env.step(call)
      return { ...result, observation: roundTrip(result.observation) }
    },
    render: (observation) => env.render(observation),
    state: () => env.state(),
  }
  const policy = policyRegistry.create(envId, 'phase-aware-rule')
  const dataset = envRegistry.get(envId).dataset!
  const params = rowsOf(envId).map((row) => dataset.toResetParams(row))
  const play = (count: number) => {
    let steps = 0
    for (let index = 0; index < count; index++)
      steps += runPolicyEpisode({ env: wrapped, policy, reset: params[index % params.length]! }).stepCount
    return steps
  }
  play(2000)
  const samples: number[][] = []
  const count = Math.min(episodesPerRun, 20_000)
  for (let run = 0; run < runs; run++) {
    const started = performance.now()
    const steps = play(count)
    const seconds = (performance.now() - started) / 1000
    samples.push([count / seconds, steps / seconds])
  }
  return {
    env_id: envId,
    policy: 'phase-aware-rule',
    episodes_per_s: Math.round(median(samples.map((sample) => sample[0] as number))),
    steps_per_s: Math.round(median(samples.map((sample) => sample[1] as number))),
  }
}

function cliEndToEnd() {
  const started = performance.now()
  const args = [
    'bin/releaseops.js',
    'eval',
    '--env',
    'releaseops-v2',
    '--policy',
    'phase-aware-rule',
    '--repeat',
    '40',
    '--workers',
    '1',
  ]
  const result = spawnSync(process.execPath, args, { encoding: 'utf8' })
  const seconds = (performance.now() - started) / 1000
  if (result.status !== 0) throw new Error(`releaseops eval failed: ${result.stderr}`)
  const reported = /(\d+) episodes in ([\d.]+) s \((\d+) episodes\/s/.exec(result.stderr)
  return {
    command: `releaseops ${args.slice(1).join(' ')}`,
    episodes: Number(reported?.[1]),
    process_wall_s: Number(seconds.toFixed(3)),
    episodes_per_s_process_wall: Math.round(Number(reported?.[1]) / seconds),
    episodes_per_s_reported: Number(reported?.[3]),
  }
}

function inChild<T>(args: string[]): T {
  const output = execFileSync(process.execPath, [...process.execArgv, 'bench/env-throughput-v2.bench.ts', ...args], {
    encoding: 'utf8',
  })
  return JSON.parse(output) as T
}

const [mode, caseName, envArgument, workersArgument] = process.argv.slice(2)
if (mode === '--case') {
  const peakRss = () => Math.round(process.resourceUsage().maxRSS / 1024)
  const envId = envArgument as string
  const result =
    caseName === 'resets'
      ? resets(envId)
      : caseName === 'text-round-trip'
        ? textRoundTrip(envId)
        : await inProcess(envId, caseName as string, Number(workersArgument))
  process.stdout.write(JSON.stringify({ ...result, peak_rss_mb: peakRss() }))
  process.exit(0)
}

type Case = Awaited<ReturnType<typeof inProcess>> & { peak_rss_mb: number }
const cases: [string, string, number][] = [
  ['phase-aware-rule', 'releaseops-v1', 1],
  ['phase-aware-rule', 'releaseops-v1', 2],
  ['naive', 'releaseops-v2', 1],
  ['rule', 'releaseops-v2', 1],
  ['phase-aware-rule', 'releaseops-v2', 1],
  ['phase-aware-rule', 'releaseops-v2', 2],
  ['oracle', 'releaseops-v2', 1],
  ['oracle', 'releaseops-v2', 2],
]
const inProcessResults: Case[] = []
for (const [policy, envId, workers] of cases) {
  inProcessResults.push(inChild<Case>(['--case', policy, envId, String(workers)]))
  process.stderr.write(`${envId} ${policy} x${workers}: ${inProcessResults.at(-1)?.episodes_per_s} episodes/s\n`)
}
const resetResults = ['releaseops-v1', 'releaseops-v2'].map((envId) =>
  inChild<ReturnType<typeof resets> & { peak_rss_mb: number }>(['--case', 'resets', envId]),
)
const roundTrips = ['releaseops-v1', 'releaseops-v2'].map((envId) =>
  inChild<ReturnType<typeof textRoundTrip> & { peak_rss_mb: number }>(['--case', 'text-round-trip', envId]),
)
const cli = cliEndToEnd()
const find = (envId: string, policy: string, workers: number) =>
  inProcessResults.find((item) => item.env_id === envId && item.policy === policy && item.workers === workers)!
const v1One = find('releaseops-v1', 'phase-aware-rule', 1)
const v2One = find('releaseops-v2', 'phase-aware-rule', 1)
const v2Two = find('releaseops-v2', 'phase-aware-rule', 2)
const pythonPhaseAware = 3150
const report = {
  bench: 'env-throughput-v2',
  created_at: new Date().toISOString(),
  machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model, node: process.version },
  datasets: { 'releaseops-v1': 'eval (50 rows) repeated', 'releaseops-v2': 'eval (500 rows) repeated' },
  in_process: inProcessResults,
  resets: resetResults,
  text_round_trip_every_step: roundTrips,
  cli_end_to_end: cli,
  ratios: {
    v2_over_v1_phase_aware_1_thread: Number((v2One.episodes_per_s / v1One.episodes_per_s).toFixed(2)),
    v2_over_v1_resets: Number((resetResults[1]!.resets_per_s / resetResults[0]!.resets_per_s).toFixed(2)),
    v2_over_v1_text_round_trip: Number((roundTrips[1]!.episodes_per_s / roundTrips[0]!.episodes_per_s).toFixed(2)),
    v2_two_thread_speedup_phase_aware: Number((v2Two.episodes_per_s / v2One.episodes_per_s).toFixed(2)),
    v2_phase_aware_over_python_v1_reference: Number((v2One.episodes_per_s / pythonPhaseAware).toFixed(1)),
  },
  python_v1_reference: {
    source: 'original Python env, recorded on this machine class',
    phase_aware_rule_episodes_per_s: pythonPhaseAware,
  },
  peak_rss_mb_max_over_cases: Math.max(...inProcessResults.map((item) => item.peak_rss_mb)),
}
mkdirSync('bench/results', { recursive: true })
writeFileSync('bench/results/env-throughput-v2.json', `${JSON.stringify(report, null, 2)}\n`)
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
