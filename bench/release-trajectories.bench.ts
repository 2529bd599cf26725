/**
 * Trajectory line on ~100,000 canonical records, written to bench/results/release-trajectories.json.
 *
 * Set-up (not measured): demo data (`BENCH_ROWS` workbook rows, default 104,500, which leaves ~100k
 * resolved records after quarantine) through the part-1 line to split canonical records. Measured, each in
 * its own plain-node child process running built code (`npm run build` first), pinned to one core with
 * taskset when available: `collect` (think-free shards), `export --think-source mock` (build every
 * trajectory through the env, write, validate the staged release in full, publish), `validate` (read
 * back, every row checked and every tool call re-executed, hashes) and `stats` (every row rendered with
 * the official template and its tokens counted). Rows/s, CPU seconds and peak RSS per case; the bars
 * (validate ≥ 20,000 rows/s on one core; stats within 2× the export's CPU time, the ratio taken run by
 * run, export then stats on the same release) are checked in this run. `BENCH_ROWS=52500` is the
 * 50k-row case of issue 24.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { demoLayout, runDemoData } from '../dist/release/demo/write-demo-data.js'
import { runReleaseLine } from '../dist/release/pipeline/run-release-line.js'

const workbookRows = Number(process.env.BENCH_ROWS ?? 104_500)
const runs = Number(process.env.BENCH_RUNS ?? 1)
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number
const round = (value: number, digits = 3) => Number(value.toFixed(digits))

const childScript = `
const [modulePath, exportName, optionsJson] = process.argv.slice(2)
const module = await import(modulePath)
const started = performance.now()
const result = await module[exportName](JSON.parse(optionsJson))
const seconds = (performance.now() - started) / 1000
const usage = process.resourceUsage()
process.stdout.write(JSON.stringify({
  seconds,
  cpu_seconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6,
  peak_rss_mb: Math.round(usage.maxRSS / 1024),
  splits: result.splits,
  valid: result.valid ?? result.validation?.valid ?? null,
}) + '\\n')
`

interface Measured {
  seconds: number
  cpu_seconds: number
  peak_rss_mb: number
  splits: Record<string, { rows?: number; all?: { rows: number } }>
  valid: boolean | null
}

const root = mkdtempSync(join(tmpdir(), 'releaseops-bench-trajectories-'))
const childFile = join(root, 'measure-case.mjs')
writeFileSync(childFile, childScript)
const pinned = spawnSync('taskset', ['-c', '0', 'true']).status === 0

function inChild(module: string, exportName: string, options: Record<string, unknown>): Measured {
  const node = [childFile, pathToFileURL(join(process.cwd(), 'dist', module)).href, exportName, JSON.stringify(options)]
  const output = pinned
    ? execFileSync('taskset', ['-c', '0', process.execPath, ...node], { encoding: 'utf8', maxBuffer: 1 << 26 })
    : execFileSync(process.execPath, node, { encoding: 'utf8', maxBuffer: 1 << 26 })
  return JSON.parse(output.trim().split('\n').at(-1) as string) as Measured
}

const demo = join(root, 'demo')
process.stderr.write(`generating ${workbookRows} workbook rows and canonical records in ${root}\n`)
await runDemoData({ out: demo, rows: workbookRows })
const at = (key: keyof typeof demoLayout) => join(demo, demoLayout[key])
const task = {
  dataset: 'steel_demo',
  registry: at('registry'),
  corpus: at('corpus'),
  taskConfig: at('task'),
  gradingConfig: at('grading'),
}
const line = join(root, 'line')
await runReleaseLine({
  input: at('xlsx'),
  mapping: at('mapping'),
  configFile: at('datasets'),
  classificationStandard: at('classification'),
  gradingStandard: at('grading'),
  ...task,
  out: line,
  stripTrailingCodes: true,
  allowUnresolved: true,
})
// The part-1 line also writes a legacy SFT release; the trajectory line needs only the canonical records.
const canonical = join(line, 'run', 'canonical', 'steel_demo', 'all.json')
rmSync(join(line, 'run', 'releases'), { recursive: true, force: true })

const loadBefore = loadavg()[0] as number
const cases: Record<'collect' | 'export' | 'validate' | 'stats', Measured[]> = {
  collect: [],
  export: [],
  validate: [],
  stats: [],
}
for (let run = 0; run < runs; run++) {
  const work = join(root, `run-${run}`)
  mkdirSync(work)
  cases.collect.push(
    inChild('release/trajectories/run-trajectory-collect.js', 'runTrajectoryCollect', {
      ...task,
      canonical,
      collectDir: join(work, 'collect'),
    }),
  )
  rmSync(join(work, 'collect'), { recursive: true, force: true })
  const release = join(work, 'release')
  cases.export.push(
    inChild('release/trajectories/run-trajectory-export.js', 'runTrajectoryExport', {
      ...task,
      canonical,
      outputDir: release,
      thinkSource: 'mock',
    }),
  )
  cases.validate.push(
    inChild('release/trajectories/run-trajectory-validate.js', 'runTrajectoryValidate', { ...task, datasetDir: release }),
  )
  cases.stats.push(inChild('release/trajectories/run-trajectory-stats.js', 'runTrajectoryStats', { datasetDir: release }))
  rmSync(work, { recursive: true, force: true })
  process.stderr.write(
    `run ${run + 1}: collect ${cases.collect.at(-1)?.seconds.toFixed(2)} s, export ${cases.export.at(-1)?.seconds.toFixed(2)} s, validate ${cases.validate.at(-1)?.seconds.toFixed(2)} s, stats ${cases.stats.at(-1)?.seconds.toFixed(2)} s\n`,
  )
}

const rowsOf = (measured: Measured) =>
  Object.values(measured.splits).reduce((sum, split) => sum + (split.rows ?? split.all?.rows ?? 0), 0)
function summary(measured: Measured[]) {
  const seconds = median(measured.map((entry) => entry.seconds))
  const rows = rowsOf(measured[0] as Measured)
  return {
    rows,
    seconds_median: round(seconds),
    rows_per_s: Math.round(rows / seconds),
    runs_seconds: measured.map((entry) => round(entry.seconds)),
    cpu_seconds_median: round(median(measured.map((entry) => entry.cpu_seconds))),
    /** Rows per CPU second: the rate on an uncontended core (the machine may be shared). */
    rows_per_cpu_s: Math.round(rows / median(measured.map((entry) => entry.cpu_seconds))),
    peak_rss_mb: Math.max(...measured.map((entry) => entry.peak_rss_mb)),
    ...(measured.some((entry) => entry.valid !== null) ? { valid: measured.every((entry) => entry.valid === true) } : {}),
  }
}
const validate = summary(cases.validate)
// Stats against the export of the same run: a ratio per run, so a machine that drifts moves both.
const statsRatio = (key: 'cpu_seconds' | 'seconds') =>
  round(median(cases.stats.map((entry, run) => entry[key] / (cases.export[run] as Measured)[key])))
const statsVsExport = { cpu_ratio_median: statsRatio('cpu_seconds'), wall_ratio_median: statsRatio('seconds') }
const report = {
  bench: 'release-trajectories',
  created_at: new Date().toISOString(),
  machine: {
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model,
    node: process.version,
    pinned_to_one_core: pinned,
    load_average_1m: { before: round(loadBefore, 2), after: round(loadavg()[0] as number, 2) },
  },
  workbook_rows: workbookRows,
  runs,
  collect: summary(cases.collect),
  export_mock_thoughts: { ...summary(cases.export), note: 'includes the full validation of the staged release' },
  validate,
  stats: summary(cases.stats),
  stats_vs_export: statsVsExport,
  bar: { validate_rows_per_s_at_least: 20_000, met: validate.rows_per_s >= 20_000 && validate.valid === true },
  stats_bar: { stats_cpu_at_most_times_export: 2, met: statsVsExport.cpu_ratio_median <= 2 },
}
rmSync(root, { recursive: true, force: true })
mkdirSync('bench/results', { recursive: true })
writeFileSync('bench/results/release-trajectories.json', `${JSON.stringify(report, null, 2)}\n`)
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
