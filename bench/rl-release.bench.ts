/**
 * The RL side of the release line, written to bench/results/rl-release.json: on a demo line of BENCH_ROWS
 * records (default 20,000), each case in its own process (`node --import tsx`, peak RSS per case), medians
 * of BENCH_RUNS runs:
 * - `rl-export`: canonical → RL release (stage1/stage2 pairs), staged, read back, validated, published;
 * - `mixture-rl-cascade`: two datasets' RL releases (the same records under two names) → one rl-cascade
 *   mixture, every input row validated, the output validated again;
 * - `validate-cascade`: the mixture checked as VeRL consumes it;
 * - `token-budget`: the preflight's token count of the mixture's train/val prompts (Qwen3.5 template,
 *   Qwen3 tokenizer);
 * - `gate`: the rollout gate over real HTTP (scripted model, qwen3.5 text, 8 episodes in flight), first
 *   BENCH_GATE_EPISODES episodes of the mixture's train split.
 * Ratios are measured in this run: mixture vs export rows/s, gate model requests/s.
 */
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { sha256Hex } from '../src/io/sha256.js'
import { demoLayout } from '../src/release/demo/write-demo-data.js'
import { runMixtureBuild } from '../src/release/mixtures/run-mixture-build.js'
import { runDemoPipeline } from '../src/release/pipeline/run-pipeline.js'
import { runRlExport } from '../src/release/rl/run-rl-export.js'

const rows = Number(process.env.BENCH_ROWS ?? 20_000)
const runs = Number(process.env.BENCH_RUNS ?? 3)
const gateEpisodes = Number(process.env.BENCH_GATE_EPISODES ?? 600)
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number
const round = (value: number, digits = 3) => Number(value.toFixed(digits))

const root = mkdtempSync(join(tmpdir(), 'releaseops-bench-rl-'))
const started = performance.now()
await runDemoPipeline({ out: join(root, 'line'), rows })
const demo = (relative: string) => join(root, 'line', 'demo', relative)
const task = join(root, 'task')
mkdirSync(task)
copyFileSync(demo(demoLayout.grading), join(task, 'grading.json'))
const pin = { path: 'grading.json', sha256: sha256Hex(readFileSync(join(task, 'grading.json'))) }
writeFileSync(join(task, 'manifest.json'), JSON.stringify({ datasets: { steel_demo: pin, steel_b: pin } }))
const files = {
  registry: demo(demoLayout.registry),
  corpus: demo(demoLayout.corpus),
  taskConfig: demo(demoLayout.task),
  gradingManifest: join(task, 'manifest.json'),
}
const canonical = join(root, 'line', 'run/canonical/steel_demo/all.json')
const rl: string[] = []
for (const dataset of ['steel_demo', 'steel_b']) {
  const outputDir = join(root, 'rl', dataset)
  await runRlExport({ dataset, ...files, canonical, outputDir })
  rl.push(`${dataset}=${outputDir}`)
}
const mixture = join(root, 'mixture')
await runMixtureBuild({ family: 'rl-cascade', inputs: rl, ...files, outputDir: mixture })
const setupSeconds = (performance.now() - started) / 1000

interface Measured {
  seconds: number
  cpu_seconds: number
  peak_rss_mb: number
  items: number
}

const caseFile = resolve(import.meta.dirname, 'rl-release', 'measure-case.ts')
function measure(name: string): Measured {
  const work = mkdtempSync(join(root, `${name}-`))
  const output = execFileSync(
    process.execPath,
    ['--import', 'tsx', caseFile, name, JSON.stringify({ files, canonical, work, rl, mixture, episodes: gateEpisodes })],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    },
  )
  rmSync(work, { recursive: true, force: true })
  return JSON.parse(output.trim().split('\n').at(-1) as string) as Measured
}

const cases = ['rl-export', 'mixture-rl-cascade', 'validate-cascade', 'token-budget', 'gate'] as const
const results: Record<string, Measured[]> = Object.fromEntries(cases.map((name) => [name, []]))
for (let run = 0; run < runs; run++) for (const name of cases) results[name]?.push(measure(name))

const summary = Object.fromEntries(
  cases.map((name) => {
    const measured = results[name] as Measured[]
    const seconds = median(measured.map((item) => item.seconds))
    const items = measured[0]?.items ?? 0
    return [
      name,
      {
        items,
        seconds: round(seconds),
        items_per_second: round(items / seconds, 1),
        cpu_seconds: round(median(measured.map((item) => item.cpu_seconds))),
        peak_rss_mb: Math.max(...measured.map((item) => item.peak_rss_mb)),
      },
    ]
  }),
)
const per = (name: string) => (summary[name] as { items_per_second: number }).items_per_second
const result = {
  bench: 'rl-release',
  rows,
  runs,
  gate_episodes: gateEpisodes,
  machine: {
    cpus: cpus().length,
    model: cpus()[0]?.model ?? 'unknown',
    load_average_1m: round(loadavg()[0] ?? 0, 2),
    node: process.version,
  },
  setup_seconds: round(setupSeconds, 1),
  cases: summary,
  ratios: {
    mixture_vs_export_rows_per_second: round(per('mixture-rl-cascade') / per('rl-export')),
    validate_cascade_vs_export_rows_per_second: round(per('validate-cascade') / per('rl-export')),
    gate_model_requests_per_second: round(per('gate') * 3, 1),
  },
}
mkdirSync(join(process.cwd(), 'bench', 'results'), { recursive: true })
writeFileSync(join(process.cwd(), 'bench', 'results', 'rl-release.json'), `${JSON.stringify(result, null, 2)}\n`)
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
rmSync(root, { recursive: true, force: true })
