/**
 * The trajectory line through the real CLI: collect think-free shards, fill them as an external writer
 * would, export with `--think-source file:`, validate and stats; mock exports are byte-identical across
 * runs and refused by `--formal`; bad thoughts stop the export with a failed audit and no release.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runTrajectoryExport } from '../src/release/trajectories/run-trajectory-export.js'
import { thinkTokens } from '../src/release/trajectories/think/think-tokens.js'
import { trajectoryClassOf } from '../src/release/trajectories/trajectory-class.js'
import { readSplit, type TrajectoryFixture, trajectoryFixture } from './release-trajectories-fixture.js'
import { temporaryDirectory, thrown, treeHashes } from './support/release-fixture.js'
import { runCli } from './support/run-cli.js'

let fixture: TrajectoryFixture
let work: string
const lastJson = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1) as string)
const readLines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map(
      (line) => JSON.parse(line) as Record<string, unknown> & { sample_id: string; tool_calls: unknown[]; tool_think: string[] },
    )

beforeAll(async () => {
  fixture = await trajectoryFixture({ rows: 300 })
  work = temporaryDirectory('trajectories-cli')
})

/** A writer's thought for a sample: long enough to exercise the limit, with CJK text. */
const writerThought = (sampleId: string, turn: string) =>
  `思考 ${turn}: sample ${sampleId.slice(0, 8)} needs a closer look at the catalog (checked).`

describe('collect → file thoughts → export → validate → stats through the CLI', () => {
  let collectDir: string
  let filledDir: string
  let release: string

  it('collect writes per-split shards with the hand-off fields and a report of shard hashes', () => {
    collectDir = join(work, 'collect')
    const result = runCli([
      'release',
      'trajectories',
      'collect',
      ...fixture.taskArgs,
      '--canonical',
      fixture.canonical,
      '--collect-dir',
      collectDir,
      '--shard-size',
      '50',
      // No progress lines on a slow machine: stderr must hold no warning at all.
      '--quiet',
    ])
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    const report = JSON.parse(readFileSync(join(collectDir, 'collect_report.json'), 'utf8'))
    expect(report.format).toBe('verl_tool_trajectory_think_collect_v1')
    const files = readdirSync(collectDir)
      .filter((name) => name.endsWith('.jsonl'))
      .sort()
    expect(files).toEqual(report.shards.map((shard: { file: string }) => shard.file).sort())
    expect(files[0]).toBe('think-test-000.jsonl')
    const hashes = treeHashes(collectDir)
    let total = 0
    for (const shard of report.shards as { file: string; split: string; rows: number; sha256: string }[]) {
      expect(hashes[shard.file]).toBe(shard.sha256)
      expect(shard.rows).toBeLessThanOrEqual(50)
      const lines = readLines(join(collectDir, shard.file))
      expect(lines).toHaveLength(shard.rows)
      total += lines.length
      for (const line of lines) {
        expect(Object.keys(line)).toEqual([
          'sample_id',
          'split',
          'trajectory_class',
          'prompt',
          'tool_calls',
          'tool_results',
          'ground_truth',
          'ground_truth_level',
          'terminal_json',
          'think',
          'tool_think',
        ])
        expect(line.split).toBe(shard.split)
        expect(line.trajectory_class).toBe(trajectoryClassOf(line.sample_id))
        expect(line.think).toBe('')
        expect(line.tool_think).toEqual(line.tool_calls.map(() => ''))
      }
    }
    expect(total).toBe(report.splits.train.rows + report.splits.val.rows + report.splits.test.rows)
    expect(total).toBeGreaterThan(250)
  })

  it('export reads the filled lines (a directory of shards) and publishes a valid release', () => {
    filledDir = join(work, 'filled')
    mkdirSync(filledDir)
    for (const name of readdirSync(collectDir).filter((file) => file.endsWith('.jsonl'))) {
      const filled = readLines(join(collectDir, name)).map((line) => ({
        ...line,
        think: writerThought(line.sample_id, 'answer'),
        tool_think: line.tool_calls.map((_, turn) => writerThought(line.sample_id, `tool ${turn}`)),
      }))
      writeFileSync(join(filledDir, name), filled.map((line) => JSON.stringify(line)).join('\n'))
    }
    release = join(work, 'release')
    const result = runCli([
      'release',
      'trajectories',
      'export',
      ...fixture.taskArgs,
      '--canonical',
      fixture.canonical,
      '--out-dir',
      release,
      '--think-source',
      `file:${filledDir}`,
      '--quiet',
    ])
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    expect(lastJson(result.stdout)).toMatchObject({
      format: 'verl_tool_trajectory_messages_parquet',
      think_source: 'file',
      enable_thinking: true,
      valid: true,
    })
    expect(readdirSync(release).sort()).toEqual(['export_report.json', 'test.parquet', 'train.parquet', 'val.parquet'])
    const report = JSON.parse(readFileSync(join(release, 'export_report.json'), 'utf8'))
    expect(report.think).toMatchObject({ source: 'file', mock: false, truncated: 0, discarded: 0 })
    expect(report.validation.valid).toBe(true)
    const hashes = treeHashes(release)
    for (const split of ['train', 'val', 'test'])
      expect(report.release.artifacts_sha256[`${split}.parquet`]).toBe(hashes[`${split}.parquet`])
    // The thoughts are in the rows, on the right turns.
    const row = readSplit(release, 'train', fixture.task).find(
      (candidate) => (candidate.tool_calls as unknown[]).length === 3,
    ) as {
      source_id: string
      messages: { role: string; reasoning_content?: string }[]
    }
    const assistant = row.messages.filter((message) => message.role === 'assistant').map((message) => message.reasoning_content)
    expect(assistant).toEqual(
      [0, 1, 2].map((turn) => writerThought(row.source_id, `tool ${turn}`)).concat(writerThought(row.source_id, 'answer')),
    )
  })

  it('validate passes the release (with provenance) and stats reports lengths and snapshots', () => {
    const result = runCli([
      'release',
      'trajectories',
      'validate',
      ...fixture.taskArgs,
      '--dataset-dir',
      release,
      '--canonical',
      fixture.canonical,
    ])
    expect(result.status).toBe(0)
    const summary = lastJson(result.stdout)
    expect(summary).toMatchObject({
      format: 'verl_tool_trajectory_messages_parquet',
      valid: true,
      cross_split_errors: [],
      report_errors: [],
    })
    expect(summary.splits.train.rows).toBeGreaterThan(200)
    const statsPath = join(work, 'stats.json')
    const stats = runCli([
      'release',
      'trajectories',
      'stats',
      '--dataset-dir',
      release,
      '--max-length',
      '1900',
      '--snapshot-rows',
      '3',
      '--report',
      statsPath,
    ])
    expect(stats.status).toBe(0)
    const report = JSON.parse(readFileSync(statsPath, 'utf8'))
    expect(report.format).toBe('verl_tool_trajectory_stats_v1')
    const train = report.splits.train
    expect(train.all.rows).toBe(summary.splits.train.rows)
    const classRows = Object.values(train.by_class as Record<string, { rows: number }>).reduce(
      (sum, group) => sum + group.rows,
      0,
    )
    expect(classRows).toBe(train.all.rows)
    // multi_tool conversations are longer than direct ones; token counts are far below character counts.
    expect(train.by_class.multi_tool.tokens.mean).toBeGreaterThan(train.by_class.direct.tokens.mean)
    expect(train.all.tokens.max).toBeLessThan(train.all.chars.max)
    expect(train.all.tokens.p95).toBeLessThanOrEqual(train.all.tokens.max)
    expect(train.all.over_max_length.rows).toBeGreaterThan(0)
    expect(train.all.over_max_length.share).toBeCloseTo(train.all.over_max_length.rows / train.all.rows, 5)
    expect(report.snapshots).toHaveLength(3)
    expect(report.snapshots[0].text.startsWith('<|im_start|>system\n# Tools')).toBe(true)
    expect(report.snapshots[0].text).toContain('<think>\n思考')
  })
})

describe('mock thoughts, determinism and --formal', () => {
  it('two mock exports of the same inputs are byte-identical; --formal refuses mock', async () => {
    const first = join(work, 'mock-a')
    const second = join(work, 'mock-b')
    for (const outputDir of [first, second])
      await runTrajectoryExport({ ...fixture.taskOptions, canonical: fixture.canonical, outputDir, thinkSource: 'mock' })
    expect(treeHashes(first)).toEqual(treeHashes(second))
    const report = JSON.parse(readFileSync(join(first, 'export_report.json'), 'utf8'))
    expect(report.think).toMatchObject({ source: 'mock', mock: true })
    expect(report.think.note).toContain('refused by --formal')
    const formal = join(work, 'formal')
    const result = runCli([
      'release',
      'trajectories',
      'export',
      ...fixture.taskArgs,
      '--canonical',
      fixture.canonical,
      '--out-dir',
      formal,
      '--think-source',
      'mock',
      '--formal',
      '--config-file',
      fixture.datasets,
    ])
    expect(result.status).toBe(2)
    expect(result.stderr).toContain('error[mock_thoughts_not_formal] (--think-source)')
    expect(existsSync(formal)).toBe(false)
    expect(JSON.parse(readFileSync(`${formal}.failed.json`, 'utf8'))).toMatchObject({
      status: 'failed',
      published: false,
      error: { code: 'mock_thoughts_not_formal' },
    })
  })

  it('--think-source none disables thinking: empty reasoning and enable_thinking false', async () => {
    const outputDir = join(work, 'none')
    const report = await runTrajectoryExport({
      ...fixture.taskOptions,
      canonical: fixture.canonical,
      outputDir,
      thinkSource: 'none',
    })
    expect(report.enable_thinking).toBe(false)
    for (const row of readSplit(outputDir, 'val', fixture.task) as {
      enable_thinking: boolean
      messages: { role: string; reasoning_content?: string }[]
    }[]) {
      expect(row.enable_thinking).toBe(false)
      for (const message of row.messages) if (message.role === 'assistant') expect(message.reasoning_content).toBe('')
    }
  })
})

describe('bad thoughts stop the export: failed audit, no output directory', () => {
  let lines: ReturnType<typeof readLines>
  let index = 0
  beforeAll(() => {
    const collectDir = join(work, 'collect')
    lines = readdirSync(collectDir)
      .filter((name) => name.endsWith('.jsonl'))
      .sort()
      .flatMap((name) => readLines(join(collectDir, name)))
      .map((line) => ({ ...line, think: 'Looks like a fit.', tool_think: line.tool_calls.map(() => 'Search first.') }))
  })
  const exportWith = async (
    edit: (all: typeof lines) => typeof lines,
    extra: { maxThinkTokens?: number; thinkOverLimit?: 'error' | 'truncate' | 'discard' } = {},
  ) => {
    const dir = join(work, `bad-${++index}`)
    mkdirSync(dir)
    const file = join(dir, 'thoughts.jsonl')
    writeFileSync(
      file,
      edit(structuredClone(lines))
        .map((line) => JSON.stringify(line))
        .join('\n'),
    )
    const outputDir = join(dir, 'release')
    const failure = await thrown(() =>
      runTrajectoryExport({
        ...fixture.taskOptions,
        canonical: fixture.canonical,
        outputDir,
        thinkSource: `file:${file}`,
        ...extra,
      }),
    )
    expect(existsSync(outputDir)).toBe(false)
    expect(readdirSync(dir).filter((name) => name.includes('staging'))).toEqual([])
    const audit = JSON.parse(readFileSync(`${outputDir}.failed.json`, 'utf8'))
    expect(audit).toMatchObject({ status: 'failed', published: false, error: { code: failure.code } })
    return { failure, codes: failure.issues.map((issue) => issue.code), outputDir }
  }

  it('missing, duplicate and unknown samples', async () => {
    const missing = await exportWith((all) => all.slice(1))
    expect(missing.codes).toEqual(['think_missing'])
    expect(missing.failure.issues[0]?.path).toBe(`sample ${lines[0]?.sample_id}`)
    const duplicate = await exportWith((all) => [...all, all[3] as (typeof all)[number]])
    expect(duplicate.codes).toEqual(['think_duplicate'])
    expect(duplicate.failure.issues[0]?.message).toContain('thoughts.jsonl:4')
    const unknown = await exportWith((all) => [...all, { ...(all[0] as (typeof all)[number]), sample_id: 'not-a-record' }])
    expect(unknown.codes).toEqual(['think_unknown_sample'])
  })

  it('unbalanced, answer-leaking, template-token thoughts and a wrong tool_think count', async () => {
    const target = (all: typeof lines) => all.find((line, at) => at > 2 && line.tool_calls.length > 0) as (typeof lines)[number]
    const result = await exportWith((all) => {
      all[0] = { ...(all[0] as (typeof all)[number]), think: 'I pick {"answer": "3"' }
      all[1] = { ...(all[1] as (typeof all)[number]), think: 'so "level"： L2 it is' }
      all[2] = { ...(all[2] as (typeof all)[number]), think: 'done</think>' }
      const withCalls = target(all)
      withCalls.tool_think = [...withCalls.tool_think, 'one too many']
      return all
    })
    expect(new Set(result.codes)).toEqual(
      new Set(['think_unbalanced', 'think_answer_leak', 'think_template_token', 'think_tool_count']),
    )
    expect(result.failure.issues.find((issue) => issue.code === 'think_unbalanced')?.path).toBe(
      `sample ${lines[0]?.sample_id}:think`,
    )
  })

  it('over-long thoughts: error by default, truncate or discard by policy (then the release is valid)', async () => {
    const long = `${'detail '.repeat(60)}end.`
    expect(thinkTokens(long)).toBeGreaterThan(64)
    const withLong = (all: typeof lines) => {
      all[5] = { ...(all[5] as (typeof all)[number]), think: long }
      return all
    }
    const error = await exportWith(withLong, { maxThinkTokens: 64 })
    expect(error.codes).toEqual(['think_too_long'])
    for (const policy of ['truncate', 'discard'] as const) {
      const dir = join(work, `long-${policy}`)
      mkdirSync(dir)
      writeFileSync(
        join(dir, 'thoughts.jsonl'),
        withLong(structuredClone(lines))
          .map((line) => JSON.stringify(line))
          .join('\n'),
      )
      const report = await runTrajectoryExport({
        ...fixture.taskOptions,
        canonical: fixture.canonical,
        outputDir: join(dir, 'release'),
        thinkSource: `file:${join(dir, 'thoughts.jsonl')}`,
        maxThinkTokens: 64,
        thinkOverLimit: policy,
      })
      expect(report.validation?.valid).toBe(true)
      expect(report.think).toMatchObject(policy === 'truncate' ? { truncated: 1, discarded: 0 } : { truncated: 0, discarded: 1 })
      const sample = lines[5]?.sample_id
      const split = lines[5]?.split as string
      const row = readSplit(join(dir, 'release'), split, fixture.task).find((candidate) => candidate.source_id === sample) as {
        think_truncated: boolean
        think_discarded: boolean
        messages: { reasoning_content?: string }[]
      }
      const final = row.messages.at(-1)?.reasoning_content as string
      if (policy === 'truncate') {
        expect(row.think_truncated).toBe(true)
        expect(long.startsWith(final)).toBe(true)
        expect(thinkTokens(final)).toBeLessThanOrEqual(64)
        expect(thinkTokens(final)).toBeGreaterThan(50)
      } else {
        expect(row.think_discarded).toBe(true)
        expect(final).toBe('')
      }
    }
  })

  it('a line written for other data (changed tool result) is refused', async () => {
    const result = await exportWith((all) => {
      const line = all.find((candidate) => candidate.tool_calls.length > 0) as (typeof all)[number]
      line.tool_results = ['{"candidates": []}', ...(line.tool_results as string[]).slice(1)]
      return all
    })
    expect(result.codes).toEqual(['think_context_mismatch'])
    expect(result.failure.issues[0]?.path).toMatch(/thoughts\.jsonl:\d+:tool_results$/)
  })
})
