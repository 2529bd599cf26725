/**
 * The kind conformance suite: every release kind (`releaseKinds`: legacy SFT, RL, trajectories, and
 * mixtures of each family) on the same demo line, through the same checks. Exported twice, it writes
 * identical bytes, and the bytes this suite pins (the `export_report.json` that records every artifact's
 * SHA-256); our reader and pyarrow read the same rows; a release with one byte changed is refused with a
 * code; a broken row is refused with the path of the field that broke.
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { demoDatasetName } from '../src/envs/grading/demo/demo-taxonomy.js'
import type { GradingTask } from '../src/envs/grading/grading-task.js'
import { sha256Hex } from '../src/io/sha256.js'
import type { AnyReleaseKind } from '../src/release/contracts/release-kind.js'
import { releaseIssueCodes, validationIssues } from '../src/release/contracts/release-validation.js'
import { demoLayout } from '../src/release/demo/write-demo-data.js'
import { loadMixtureTasks, type MixtureTasks } from '../src/release/mixtures/mixture-tasks.js'
import { runDemoPipeline } from '../src/release/pipeline/run-pipeline.js'
import { loadTaskFor } from '../src/release/planning/task-options.js'
import { releaseKinds } from '../src/release/release-kinds.js'
import { testPython } from './support/python.js'
import { temporaryDirectory, treeHashes } from './support/release-fixture.js'

const datasets = [demoDatasetName, 'steel_b'] as const
const splits = ['train', 'val', 'test'] as const

interface KindCase {
  name: string
  kind: AnyReleaseKind
  /** The export's options for an output directory. */
  options(outputDir: string): Record<string, unknown>
  source(): unknown
  validate(directory: string): unknown
  /** `export_report.json`'s SHA-256: it holds every artifact's, so it pins the release's bytes. */
  pinned: string
  /** Breaks one field of a row; the row check must name it. */
  bad: { mutate(row: Record<string, unknown>): void; code: string; path: string }
}

let root: string
let files: { registry: string; corpus: string; taskConfig: string; gradingManifest: string }
let canonical: string
let task: GradingTask
let mixtureTasks: MixtureTasks
const inputs: Record<string, string[]> = { sft: [], rl: [], trajectories: [] }

const kindNamed = (command: string) => releaseKinds.find((kind) => kind.command === command) as AnyReleaseKind
const taskOptions = () => ({ dataset: demoDatasetName, ...files })
const record = (command: 'sft' | 'rl' | 'trajectories', pinned: string, bad: KindCase['bad']): KindCase => ({
  name: command,
  kind: kindNamed(command),
  options: (outputDir) => ({
    ...taskOptions(),
    canonical,
    outputDir,
    ...(command === 'trajectories' ? { thinkSource: 'none' } : {}),
  }),
  source: () => ({ task, dataset: demoDatasetName }),
  validate: (datasetDir) => ({ ...taskOptions(), datasetDir }),
  pinned,
  bad,
})
const mixture = (family: 'sft' | 'rl-cascade' | 'trajectory', pinned: string, bad: KindCase['bad']): KindCase => ({
  name: `mixture ${family}`,
  kind: kindNamed('mixture'),
  options: (outputDir) => ({
    family,
    inputs: inputs[family === 'rl-cascade' ? 'rl' : family === 'trajectory' ? 'trajectories' : 'sft'],
    ...files,
    outputDir,
  }),
  source: () => ({ family, tasks: mixtureTasks }),
  validate: (directory) => ({ directory, family, tasks: mixtureTasks }),
  pinned,
  bad,
})
const setPath = (path: string, value: unknown) => (row: Record<string, unknown>) => {
  const keys = path.split('.')
  let target = row
  for (const key of keys.slice(0, -1)) target = target[key] as Record<string, unknown>
  target[keys.at(-1) as string] = value
}

// Pinned from the releases written before the kinds shared one contract: the bytes must not move.
const cases: KindCase[] = [
  record('sft', '28ebdf9f158d4504ae1ca198dda38996dfc4a8565212b2471f3beea75c7a1f74', {
    mutate: setPath('stage', 'stage9'),
    code: 'sft_stage',
    path: 'stage',
  }),
  record('rl', '5e5133b2e797a035d9dbaf87524d3153e10b9b4191a5fe596915a4f756193f6b', {
    mutate: setPath('extra_info.stage', 'stage9'),
    code: 'rl_stage',
    path: 'extra_info.stage',
  }),
  record('trajectories', '259e320f4a50fcf9de59e71dacaf7f4c49c679fd3cd55455677df9a312f91d91', {
    mutate: setPath('tools', []),
    code: 'trajectory_tools',
    path: 'tools',
  }),
  mixture('sft', '0295f9d90dc0be80b99f2b5b815cebdd86c4de58a44ccc1c4ec8e77f9e3d2ad7', {
    mutate: setPath('stage', 'stage9'),
    code: 'sft_stage',
    path: 'stage',
  }),
  mixture('rl-cascade', '5565932fd6c891642aab562821b586b5e0b4129648505d1d82a9dfb32aad6e66', {
    mutate: setPath('extra_info.stage', 'stage2'),
    code: 'rl_stage',
    path: 'extra_info.stage',
  }),
  mixture('trajectory', '54d0f6380c20bf15b47f3ededf1956b40a07525af536d885f8d8e40ac74022c6', {
    mutate: setPath('tools', []),
    code: 'trajectory_tools',
    path: 'tools',
  }),
]

beforeAll(async () => {
  root = temporaryDirectory('kind-conformance')
  const out = join(root, 'line')
  await runDemoPipeline({ out, rows: 300 })
  const demo = (relative: string) => join(out, 'demo', relative)
  const taskDir = join(root, 'task')
  mkdirSync(taskDir)
  copyFileSync(demo(demoLayout.grading), join(taskDir, 'grading-a.json'))
  copyFileSync(demo(demoLayout.grading), join(taskDir, 'grading-b.json'))
  const pin = (name: string) => ({ path: name, sha256: sha256Hex(readFileSync(join(taskDir, name))) })
  writeFileSync(
    join(taskDir, 'manifest.json'),
    JSON.stringify({ datasets: { [demoDatasetName]: pin('grading-a.json'), steel_b: pin('grading-b.json') } }),
  )
  files = {
    registry: demo(demoLayout.registry),
    corpus: demo(demoLayout.corpus),
    taskConfig: demo(demoLayout.task),
    gradingManifest: join(taskDir, 'manifest.json'),
  }
  canonical = join(out, 'run/canonical', demoDatasetName, 'all.json')
  task = loadTaskFor(taskOptions()).task
  mixtureTasks = loadMixtureTasks({ ...files, datasets })
  // The mixtures' inputs: each record kind for both datasets.
  for (const command of ['sft', 'rl', 'trajectories'] as const) {
    for (const dataset of datasets) {
      const outputDir = join(root, 'inputs', command, dataset)
      const extra = command === 'trajectories' ? { thinkSource: 'none' } : {}
      await kindNamed(command).export({ dataset, ...files, canonical, outputDir, ...extra })
      inputs[command]?.push(`${dataset}=${outputDir}`)
    }
  }
}, 300_000)

/** Rows as plain JSON both sides agree on: keys sorted, null members dropped, integral numbers as integers. */
function normalized(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value)
  if (Array.isArray(value)) return value.map(normalized)
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== null && member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return Object.fromEntries(entries.map(([key, member]) => [key, normalized(member)]))
  }
  return value
}

const pyarrowRows = `
import json, sys
import pyarrow.parquet as pq
def norm(v):
    if isinstance(v, list): return [norm(x) for x in v]
    if isinstance(v, dict): return {k: norm(v[k]) for k in sorted(v) if v[k] is not None}
    if isinstance(v, float) and v.is_integer(): return int(v)
    return v
print(json.dumps([norm(row) for row in pq.read_table(sys.argv[1]).to_pylist()], ensure_ascii=False))
`

function readWithPyarrow(path: string): unknown {
  const result = spawnSync(testPython(), ['-c', pyarrowRows, path], { encoding: 'utf8', maxBuffer: 1 << 30 })
  expect(result.status, result.stderr).toBe(0)
  return JSON.parse(result.stdout)
}

it('runs every release kind', () => {
  expect(new Set(cases.map((entry) => entry.kind.command))).toEqual(new Set(releaseKinds.map((kind) => kind.command)))
})

describe.each(cases)('release kind: $name', (entry) => {
  let first: string

  it('exports twice to identical bytes, the bytes pinned, and validates them', async () => {
    first = join(root, entry.name, 'first')
    const second = join(root, entry.name, 'second')
    await entry.kind.export(entry.options(first))
    await entry.kind.export(entry.options(second))
    const hashes = treeHashes(first)
    expect(Object.keys(hashes).sort()).toEqual(['export_report.json', 'test.parquet', 'train.parquet', 'val.parquet'])
    expect(treeHashes(second)).toEqual(hashes)
    expect(hashes['export_report.json']).toBe(entry.pinned)
    const report = JSON.parse(readFileSync(join(first, 'export_report.json'), 'utf8'))
    expect(report.format).toBe(entry.kind.format)
    for (const split of splits) expect(report.release.artifacts_sha256[`${split}.parquet`]).toBe(hashes[`${split}.parquet`])
    const validation = await entry.kind.validate(entry.validate(first))
    expect(validationIssues(validation)).toEqual([])
    expect(validation.valid).toBe(true)
  }, 180_000)

  it('reads the same rows with our reader as pyarrow does', async () => {
    const context = entry.kind.rowContext(entry.source())
    for (const split of splits) {
      const path = join(first, `${split}.parquet`)
      const ours = normalized(await entry.kind.readRows(path, context)) as unknown[]
      expect(ours.length).toBeGreaterThan(0)
      expect(ours).toEqual(readWithPyarrow(path))
    }
  }, 120_000)

  it('refuses a release with one byte changed, with a code', async () => {
    const copy = join(root, entry.name, 'tampered')
    cpSync(first, copy, { recursive: true })
    const path = join(copy, 'val.parquet')
    const bytes = readFileSync(path)
    const at = Math.floor(bytes.length / 2)
    bytes[at] = (bytes[at] as number) ^ 0x01
    writeFileSync(path, bytes)
    const validation = await entry.kind.validate(entry.validate(copy))
    expect(validation.valid).toBe(false)
    const issues = validationIssues(validation)
    // Unreadable, or readable with its hash no longer the report's: either way a coded issue names the file.
    expect(issues.length).toBeGreaterThan(0)
    for (const issue of issues) expect(Object.values(releaseIssueCodes)).toContain(issue.code)
    expect(
      issues.some(
        (issue) =>
          (issue.code === releaseIssueCodes.split && issue.path === 'val.parquet') ||
          (issue.code === releaseIssueCodes.report && issue.message.includes('val.parquet')),
      ),
      JSON.stringify(issues),
    ).toBe(true)
  }, 120_000)

  it('refuses a bad row with the path of its field', async () => {
    const context = entry.kind.rowContext(entry.source())
    const [row] = await entry.kind.readRows(join(first, 'train.parquet'), context)
    const good = structuredClone(row) as Record<string, unknown>
    expect(entry.kind.checkRow(good, context)).toEqual([])
    entry.bad.mutate(good)
    expect(entry.kind.checkRow(good, context)).toContainEqual(
      expect.objectContaining({ code: entry.bad.code, path: entry.bad.path }),
    )
  }, 120_000)
})
