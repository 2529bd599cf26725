/**
 * Part-1 release line on a 100,000-row workbook, written to bench/results/release-part1.json.
 *
 * - `read`: merely reading the workbook with the same reader (ours, streaming: every row's cells);
 * - `line`: `release pipeline` without its validation: preprocess → canonical build → audit → quarantine →
 *   split → audit → legacy SFT export, in one process (records stay in memory, every artifact is written);
 * - `stages`: each stage as its own command would run it (its own process, reading the previous files).
 * Each case runs built code (`npm run build` first) in its own plain-node child process (peak RSS per
 * case; no TypeScript loader, which worker threads would inherit). Read and line alternate, medians are
 * taken, and the bar is checked in this run: line throughput ≥ 1/3 of read throughput, peak RSS < 1.5 GB.
 * The workbook is generated here (`release demo-data --rows 100000`), never committed.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { demoLayout, runDemoData } from '../dist/release/demo/write-demo-data.js'

const rows = Number(process.env.BENCH_ROWS ?? 100_000)
const runs = Number(process.env.BENCH_RUNS ?? 5)
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number
const round = (value: number, digits = 3) => Number(value.toFixed(digits))

function inputs(demo: string) {
  const at = (key: keyof typeof demoLayout) => join(demo, demoLayout[key])
  return {
    input: at('xlsx'),
    mapping: at('mapping'),
    dataset: 'steel_demo',
    configFile: at('datasets'),
    registry: at('registry'),
    corpus: at('corpus'),
    taskConfig: at('task'),
    gradingConfig: at('grading'),
    classificationStandard: at('classification'),
    gradingStandard: at('grading'),
  }
}

/** The measured child: calls one exported function of a built module and prints its time, result and peak RSS. */
const childScript = `
const [modulePath, exportName, optionsJson] = process.argv.slice(2)
const module = await import(modulePath)
const options = JSON.parse(optionsJson)
const started = performance.now()
let result
if (exportName === 'readXlsxRows') {
  let rows = 0
  for await (const row of module.readXlsxRows(options).rows) rows += row.cells.length > 0 ? 1 : 0
  result = { rows: rows - 1 }
} else result = await module[exportName](options)
const seconds = (performance.now() - started) / 1000
const usage = process.resourceUsage()
const cpu_seconds = (usage.userCPUTime + usage.systemCPUTime) / 1e6
const peak_rss_mb = Math.round(usage.maxRSS / 1024)
process.stdout.write(JSON.stringify({ seconds, cpu_seconds, result, peak_rss_mb }) + '\\n')
`

interface Case {
  module: string
  exportName: string
  options: Record<string, unknown>
  /** How many rows the result stands for. */
  rows(result: Record<string, unknown>): number
}

interface Measured {
  seconds: number
  /** User + system CPU time of the whole child process, all threads. */
  cpu_seconds: number
  rows: number
  peak_rss_mb: number
  result: Record<string, unknown>
}

const root = mkdtempSync(join(tmpdir(), 'releaseops-bench-part1-'))
// A file, not `--input-type=module -e`: worker threads inherit the child's flags.
const childFile = join(root, 'measure-case.mjs')
writeFileSync(childFile, childScript)

function inChild(measured: Case): Measured {
  const output = execFileSync(
    process.execPath,
    [childFile, pathToFileURL(measured.module).href, measured.exportName, JSON.stringify(measured.options)],
    { encoding: 'utf8', maxBuffer: 1 << 26 },
  )
  const parsed = JSON.parse(output.trim().split('\n').at(-1) as string) as Omit<Measured, 'rows'>
  return { ...parsed, rows: measured.rows(parsed.result) }
}

const dist = (path: string) => join(process.cwd(), 'dist', path)
const allRows = () => rows

function readCase(demo: string): Case {
  return {
    module: dist('release/xlsx/read-xlsx-rows.js'),
    exportName: 'readXlsxRows',
    options: { path: inputs(demo).input },
    rows: (result) => result.rows as number,
  }
}

function lineCase(demo: string, out: string): Case {
  return {
    module: dist('release/pipeline/run-release-line.js'),
    exportName: 'runReleaseLine',
    options: { ...inputs(demo), out, stripTrailingCodes: true, allowUnresolved: true },
    rows: allRows,
  }
}

/** The stages in runbook order, each reading what the previous one wrote under `work`. */
function stageCases(demo: string, work: string): (Case & { stage: string })[] {
  const files = inputs(demo)
  const canonicalDir = join(work, 'canonical')
  const canonical = join(canonicalDir, 'steel_demo', 'all.json')
  const audit = (stage: string, report: string) => ({
    stage,
    module: dist('release/audit/run-prompt-audit.js'),
    exportName: 'runPromptAudit',
    options: {
      canonical: [canonical],
      classificationStandard: [files.classificationStandard],
      gradingStandard: [files.gradingStandard],
      dataset: files.dataset,
      report: join(work, report),
    },
    rows: (result: Record<string, unknown>) => (result.report as { records_audited: number }).records_audited,
  })
  return [
    {
      stage: 'preprocess',
      module: dist('release/preprocess/run-preprocess.js'),
      exportName: 'runPreprocess',
      options: { ...files, output: join(work, 'processed.json'), stripTrailingCodes: true },
      rows: allRows,
    },
    {
      stage: 'canonical-build',
      module: dist('release/canonical/run-canonical-build.js'),
      exportName: 'runCanonicalBuild',
      options: {
        dataset: files.dataset,
        configFile: files.configFile,
        canonicalDir,
        processed: join(work, 'processed.json'),
        registry: files.registry,
        corpus: files.corpus,
        allowUnresolved: true,
      },
      rows: allRows,
    },
    audit('audit (raw: fails, as expected)', 'audit-raw.json'),
    {
      stage: 'quarantine-conflicts',
      module: dist('release/canonical/run-quarantine-conflicts.js'),
      exportName: 'runQuarantineConflicts',
      options: { canonicalDir, dataset: files.dataset },
      rows: allRows,
    },
    {
      stage: 'split',
      module: dist('release/canonical/run-canonical-split.js'),
      exportName: 'runCanonicalSplit',
      options: { canonicalDir, dataset: files.dataset, splitType: 'random', seed: 42 },
      rows: allRows,
    },
    audit('audit', 'audit.json'),
    {
      stage: 'sft-export',
      module: dist('release/sft/run-sft-export.js'),
      exportName: 'runSftExport',
      options: { ...files, canonical, outputDir: join(work, 'sft') },
      rows: (result) =>
        Object.values(result.splits as Record<string, { records: number }>).reduce((sum, split) => sum + split.records, 0),
    },
  ]
}

const demo = join(root, 'demo')
process.stderr.write(`generating a ${rows}-row workbook in ${demo}\n`)
await runDemoData({ out: demo, rows })
const loadBefore = loadavg()[0] as number
const reads: Measured[] = []
const lines: Measured[] = []
for (let run = 0; run < runs; run++) {
  reads.push(inChild(readCase(demo)))
  const work = join(root, `line-${run}`)
  lines.push(inChild(lineCase(demo, join(work, 'out'))))
  rmSync(work, { recursive: true, force: true })
  process.stderr.write(`run ${run + 1}: read ${reads.at(-1)?.seconds.toFixed(2)} s, line ${lines.at(-1)?.seconds.toFixed(2)} s\n`)
}
const stageWork = join(root, 'stages')
mkdirSync(stageWork)
const stages = stageCases(demo, stageWork).map((stage) => {
  const result = inChild(stage)
  process.stderr.write(`${stage.stage}: ${result.seconds.toFixed(2)} s\n`)
  return {
    stage: stage.stage,
    seconds: round(result.seconds),
    rows: result.rows,
    rows_per_s: Math.round(result.rows / result.seconds),
    peak_rss_mb: result.peak_rss_mb,
  }
})
const readSeconds = median(reads.map((read) => read.seconds))
const lineSeconds = median(lines.map((line) => line.seconds))
const medianLine = lines.find((line) => line.seconds === lineSeconds) as Measured
const ratio = readSeconds / lineSeconds
const peak = Math.max(...lines.map((line) => line.peak_rss_mb), ...stages.map((stage) => stage.peak_rss_mb))
const timings = medianLine.result.timings as { stage: string; seconds: number; rows: number }[]
const report = {
  bench: 'release-part1',
  created_at: new Date().toISOString(),
  machine: {
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model,
    node: process.version,
    load_average_1m: { before: round(loadBefore, 2), after: round(loadavg()[0] as number, 2) },
  },
  workbook_rows: rows,
  runs,
  read: {
    seconds_median: round(readSeconds),
    rows_per_s: Math.round(rows / readSeconds),
    runs_seconds: reads.map((read) => round(read.seconds)),
    cpu_seconds_median: round(median(reads.map((read) => read.cpu_seconds))),
    peak_rss_mb: Math.max(...reads.map((read) => read.peak_rss_mb)),
  },
  line: {
    seconds_median: round(lineSeconds),
    rows_per_s: Math.round(rows / lineSeconds),
    runs_seconds: lines.map((line) => round(line.seconds)),
    cpu_seconds_median: round(median(lines.map((line) => line.cpu_seconds))),
    peak_rss_mb: Math.max(...lines.map((line) => line.peak_rss_mb)),
    stages_of_median_run: timings.map((stage) => ({
      stage: stage.stage,
      seconds: round(stage.seconds),
      rows: stage.rows,
      rows_per_s: stage.seconds > 0 ? Math.round(stage.rows / stage.seconds) : null,
    })),
  },
  stages_as_separate_commands: stages,
  ratio_line_to_read_throughput: round(ratio),
  bar: { ratio_at_least: round(1 / 3), peak_rss_mb_below: 1536, met: ratio >= 1 / 3 && peak < 1536 },
  peak_rss_mb_max: peak,
}
rmSync(root, { recursive: true, force: true })
mkdirSync('bench/results', { recursive: true })
writeFileSync('bench/results/release-part1.json', `${JSON.stringify(report, null, 2)}\n`)
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
