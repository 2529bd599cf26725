/**
 * Environment throughput figures, written to bench/results/env-throughput.json.
 *
 * - in-process episodes/s and steps/s per baseline over the 50 v1 eval rows, with 1 and 2 threads
 *   (median of timed runs after a warm-up);
 * - the same with the observation rendered to text and parsed back on every step (how the original
 *   Python baselines read state), for the phase-aware baseline;
 * - `releaseops eval --workers 1` on 20,000 episodes end to end (process start to exit);
 * - the original Python env on this machine, when RELEASEOPS_ORIGINAL_DIR points at a checkout of it,
 *   else the documented reference (3,150 episodes/s for phase-aware-rule).
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { runPolicyEpisode } from '../dist/agent/run-policy-episode.js'
import type { Env, StepResult } from '../dist/core/env/env-api.js'
import { envRegistry, makeEnv, policyRegistry } from '../dist/envs/index.js'
import { type ReleaseOpsV1Observation, renderView } from '../dist/envs/releaseops/v1/releaseops-env.js'
import { runEval } from '../dist/eval/run-eval.js'

const envId = 'releaseops-v1'
const baselines = ['naive', 'rule', 'phase-aware-rule']
const dataset = envRegistry.get(envId).dataset!
const evalRows = dataset.rows('eval')
const repeat = Number(process.env.BENCH_REPEAT ?? 4000)
const runs = Number(process.env.BENCH_RUNS ?? 3)
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number

async function inProcess(policy: string, workers: number) {
  const rows = Array.from({ length: repeat }, () => evalRows).flat()
  await runEval({ envId, rows: rows.slice(0, 5000), policies: [policy], workers })
  const samples: { episodesPerSecond: number; stepsPerSecond: number }[] = []
  for (let run = 0; run < runs; run++) {
    const started = performance.now()
    const records = await runEval({ envId, rows, policies: [policy], workers })
    const seconds = (performance.now() - started) / 1000
    const steps = records.reduce((total, record) => total + record.step_count, 0)
    samples.push({ episodesPerSecond: records.length / seconds, stepsPerSecond: steps / seconds })
  }
  return {
    policy,
    workers,
    episodes_per_run: rows.length,
    runs,
    episodes_per_s: Math.round(median(samples.map((sample) => sample.episodesPerSecond))),
    steps_per_s: Math.round(median(samples.map((sample) => sample.stepsPerSecond))),
  }
}

/** Every step's observation goes through its indent-2 text and JSON.parse before the policy sees it. */
function textRoundTrip(policyName: string) {
  const env = makeEnv<ReleaseOpsV1Observation>(envId)
  const roundTrip = (observation: ReleaseOpsV1Observation): ReleaseOpsV1Observation => ({
    ...observation,
    view: JSON.parse(renderView(observation.view)),
  })
  const wrapped: Env<ReleaseOpsV1Observation> = {
    spec: env.spec,
    reset: (params) => {
      const result = env.reset(params)
      return { ...result, observation: roundTrip(result.observation) }
    },
    step: (call): StepResult<ReleaseOpsV1Observation> => {
      const result = env.step(call)
      return { ...result, observation: roundTrip(result.observation) }
    },
    render: (observation) => env.render(observation),
    state: () => env.state(),
  }
  const policy = policyRegistry.create(envId, policyName)
  const play = (count: number) => {
    let steps = 0
    for (let index = 0; index < count; index++) {
      const row = evalRows[index % evalRows.length]!
      steps += runPolicyEpisode({ env: wrapped as never, policy, reset: dataset.toResetParams(row) }).stepCount
    }
    return steps
  }
  play(5000)
  const samples: number[][] = []
  for (let run = 0; run < runs; run++) {
    const started = performance.now()
    const episodes = Math.min(repeat, 1000) * evalRows.length
    const steps = play(episodes)
    const seconds = (performance.now() - started) / 1000
    samples.push([episodes / seconds, steps / seconds])
  }
  return {
    policy: policyName,
    workers: 1,
    episodes_per_s: Math.round(median(samples.map((sample) => sample[0] as number))),
    steps_per_s: Math.round(median(samples.map((sample) => sample[1] as number))),
  }
}

function cliEndToEnd() {
  const started = performance.now()
  const result = spawnSync(
    process.execPath,
    ['bin/releaseops.js', 'eval', '--env', envId, '--policy', 'phase-aware-rule', '--repeat', '400', '--workers', '1'],
    { encoding: 'utf8' },
  )
  const seconds = (performance.now() - started) / 1000
  if (result.status !== 0) throw new Error(`releaseops eval failed: ${result.stderr}`)
  const reported = /(\d+) episodes in ([\d.]+) s \((\d+) episodes\/s/.exec(result.stderr)
  return {
    command: 'releaseops eval --policy phase-aware-rule --repeat 400 --workers 1',
    episodes: Number(reported?.[1]),
    process_wall_s: Number(seconds.toFixed(3)),
    episodes_per_s_process_wall: Math.round(Number(reported?.[1]) / seconds),
    episodes_per_s_reported: Number(reported?.[3]),
  }
}

function pythonPeer() {
  const original = process.env.RELEASEOPS_ORIGINAL_DIR
  if (!original) return { source: 'original Python env, recorded on this machine class', phase_aware_rule_episodes_per_s: 3150 }
  const directory = mkdtempSync(join(tmpdir(), 'releaseops-bench-'))
  const file = join(directory, 'eval.jsonl')
  writeFileSync(file, evalRows.map((row) => `${dataset.serializeRow(row)}\n`).join(''))
  const output = execFileSync('python3', ['bench/peers/original_arena_throughput.py', file, '3'], {
    env: { ...process.env, RELEASEOPS_ORIGINAL_DIR: original },
    encoding: 'utf8',
  })
  const measured = JSON.parse(output) as Record<string, { episodes_per_s: number }>
  return {
    source: `measured in this run from ${original}`,
    phase_aware_rule_episodes_per_s: measured['phase-aware-rule']?.episodes_per_s ?? 0,
    all: measured,
  }
}

/** Each measurement runs in its own process, so JIT state and heap peaks do not leak between cases. */
function inChild<T>(args: string[]): T {
  const output = execFileSync(process.execPath, [...process.execArgv, 'bench/env-throughput.bench.ts', ...args], {
    encoding: 'utf8',
  })
  return JSON.parse(output) as T
}

const [mode, caseName, caseArgument] = process.argv.slice(2)
if (mode === '--case') {
  const peakRss = () => Math.round(process.resourceUsage().maxRSS / 1024)
  const result =
    caseName === 'text-round-trip'
      ? textRoundTrip(caseArgument as string)
      : await inProcess(caseName as string, Number(caseArgument))
  process.stdout.write(JSON.stringify({ ...result, peak_rss_mb: peakRss() }))
  process.exit(0)
}

type CaseResult = Awaited<ReturnType<typeof inProcess>> & { peak_rss_mb: number }
const results: CaseResult[] = []
for (const policy of baselines) {
  for (const workers of [1, 2]) {
    results.push(inChild<CaseResult>(['--case', policy, String(workers)]))
    process.stderr.write(`${policy} x${workers}: ${results.at(-1)?.episodes_per_s} episodes/s\n`)
  }
}
const textRoundTripResult = inChild<ReturnType<typeof textRoundTrip> & { peak_rss_mb: number }>([
  '--case',
  'text-round-trip',
  'phase-aware-rule',
])
const cli = cliEndToEnd()
const peer = pythonPeer()
const reference = peer.phase_aware_rule_episodes_per_s
const phaseAwareOne = results.find((result) => result.policy === 'phase-aware-rule' && result.workers === 1)!
const phaseAwareTwo = results.find((result) => result.policy === 'phase-aware-rule' && result.workers === 2)!
const report = {
  bench: 'env-throughput',
  created_at: new Date().toISOString(),
  machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model, node: process.version },
  env_id: envId,
  dataset: 'eval (50 rows) repeated',
  in_process: results,
  text_round_trip_every_step: textRoundTripResult,
  cli_end_to_end: cli,
  python_original: peer,
  ratios_vs_python_phase_aware: {
    in_process_1_thread: Number((phaseAwareOne.episodes_per_s / reference).toFixed(1)),
    in_process_2_threads: Number((phaseAwareTwo.episodes_per_s / reference).toFixed(1)),
    text_round_trip_1_thread: Number((textRoundTripResult.episodes_per_s / reference).toFixed(1)),
    cli_20k_process_wall: Number((cli.episodes_per_s_process_wall / reference).toFixed(1)),
  },
  two_thread_speedup_phase_aware: Number((phaseAwareTwo.episodes_per_s / phaseAwareOne.episodes_per_s).toFixed(2)),
  peak_rss_mb_max_over_cases: Math.max(...results.map((result) => result.peak_rss_mb)),
}
mkdirSync('bench/results', { recursive: true })
writeFileSync('bench/results/env-throughput.json', `${JSON.stringify(report, null, 2)}\n`)
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
