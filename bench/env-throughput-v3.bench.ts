/**
 * releaseops-v3 throughput next to v2, written to bench/results/env-throughput-v3.json. Both envs run in
 * this one process, interleaved round by round (v2 case, then the same v3 case), so each ratio compares
 * figures from the same run; medians over the rounds after a warm-up.
 *
 * - in-process episodes/s and steps/s of one thread over each env's 500 eval rows, per policy (v2's
 *   baselines are v3's too; v3 adds evidence-heuristic), and the oracle;
 * - resets/s: both build a scenario and prove it winnable (the oracle plays it) on every reset.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { runPolicyEpisode } from '../dist/agent/run-policy-episode.js'
import { envRegistry, makeEnv, policyRegistry } from '../dist/envs/index.js'

const episodes = Number(process.env.BENCH_EPISODES ?? 20_000)
const rounds = Number(process.env.BENCH_RUNS ?? 5)
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number
const resetsOf = (envId: string) => {
  const dataset = envRegistry.get(envId).dataset!
  return dataset.rows('eval').map((row) => dataset.toResetParams(row))
}

function episodesPerSecond(envId: string, policyName: string): { episodes: number; steps: number } {
  const env = makeEnv(envId)
  const policy = policyRegistry.create(envId, policyName)
  const resets = resetsOf(envId)
  let steps = 0
  const started = performance.now()
  for (let index = 0; index < episodes; index++) {
    steps += runPolicyEpisode({ env, policy, reset: resets[index % resets.length]! }).stepCount
  }
  const seconds = (performance.now() - started) / 1000
  return { episodes: episodes / seconds, steps: steps / seconds }
}

function resetsPerSecond(envId: string): number {
  const env = makeEnv(envId)
  const resets = resetsOf(envId)
  const started = performance.now()
  for (let index = 0; index < episodes; index++) env.reset(resets[index % resets.length]!)
  return episodes / ((performance.now() - started) / 1000)
}

const cases: { name: string; measure: (envId: string) => number; steps?: (envId: string) => number }[] = []
const stepsSeen = new Map<string, number[]>()
for (const policy of ['naive', 'phase-aware-rule', 'oracle']) {
  cases.push({
    name: policy,
    measure: (envId) => {
      const result = episodesPerSecond(envId, policy)
      const key = `${envId}/${policy}`
      stepsSeen.set(key, [...(stepsSeen.get(key) ?? []), result.steps])
      return result.episodes
    },
  })
}
cases.push({ name: 'resets', measure: resetsPerSecond })

const samples = new Map<string, number[]>()
const record = (key: string, value: number) => samples.set(key, [...(samples.get(key) ?? []), value])
for (const testCase of cases) for (const envId of ['releaseops-v2', 'releaseops-v3']) testCase.measure(envId) // warm-up
stepsSeen.clear()
for (let round = 0; round < rounds; round++) {
  for (const testCase of cases) {
    for (const envId of ['releaseops-v2', 'releaseops-v3']) record(`${envId}/${testCase.name}`, testCase.measure(envId))
  }
}
const heuristic = [0, 1, 2].map(() => episodesPerSecond('releaseops-v3', 'evidence-heuristic').episodes)
const figure = (key: string) => Math.round(median(samples.get(key) ?? [0]))
const ratios: Record<string, number> = {}
for (const testCase of cases) {
  ratios[`v3_over_v2_${testCase.name}`] = Number(
    (figure(`releaseops-v3/${testCase.name}`) / figure(`releaseops-v2/${testCase.name}`)).toFixed(3),
  )
}
const report = {
  bench: 'env-throughput-v3',
  created_at: new Date().toISOString(),
  machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model, node: process.version },
  episodes_per_case: episodes,
  rounds,
  episodes_per_s: Object.fromEntries(
    [...samples.keys()].filter((key) => !key.endsWith('/resets')).map((key) => [key, figure(key)]),
  ),
  steps_per_s: Object.fromEntries([...stepsSeen.entries()].map(([key, values]) => [key, Math.round(median(values))])),
  resets_per_s: { 'releaseops-v2': figure('releaseops-v2/resets'), 'releaseops-v3': figure('releaseops-v3/resets') },
  evidence_heuristic_v3_episodes_per_s: Math.round(median(heuristic)),
  ratios,
}
mkdirSync('bench/results', { recursive: true })
writeFileSync('bench/results/env-throughput-v3.json', `${JSON.stringify(report, null, 2)}\n`)
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
