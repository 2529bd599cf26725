/**
 * Tampering with a published trajectory release: one tool result, one id, one split assignment, one byte
 * of a Parquet file. Semantic edits are re-hashed into the report (a careful forger), so the row checks
 * must catch them and name the row and the reason; the byte edit is caught by the report's hashes.
 * `loadTrajectoryRelease` refuses every tampered release.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadCanonicalRecords } from '../src/release/canonical/parse-canonical-records.js'
import { loadTrajectoryRelease } from '../src/release/trajectories/index.js'
import { runTrajectoryExport } from '../src/release/trajectories/run-trajectory-export.js'
import { validateTrajectoryRelease } from '../src/release/trajectories/validate-trajectory-release.js'
import { readSplit, rewriteSplit, type TrajectoryFixture, trajectoryFixture } from './release-trajectories-fixture.js'
import { temporaryDirectory } from './support/release-fixture.js'
import { runCli } from './support/run-cli.js'

let fixture: TrajectoryFixture
let pristine: string
let work: string
let copies = 0

type Row = {
  source_id: string
  trajectory_class: string
  messages: {
    role: string
    content: string
    tool_calls?: { id: string; function: { name: string; arguments: Record<string, unknown> } }[]
  }[]
  tool_calls: { name: string; arguments: Record<string, unknown> }[]
}

beforeAll(async () => {
  fixture = await trajectoryFixture({ rows: 300 })
  work = temporaryDirectory('trajectories-tamper')
  pristine = join(work, 'pristine')
  await runTrajectoryExport({ ...fixture.taskOptions, canonical: fixture.canonical, outputDir: pristine, thinkSource: 'mock' })
})

const copy = () => {
  const dir = join(work, `copy-${++copies}`)
  cpSync(pristine, dir, { recursive: true })
  return dir
}
const validate = (dir: string) =>
  validateTrajectoryRelease({ dir, task: fixture.task, canonical: loadCanonicalRecords(fixture.canonical).records })

describe('a tampered trajectory release fails validation with the row and the reason', () => {
  it('the pristine release is valid and loads', () => {
    expect(validate(pristine).valid).toBe(true)
    const loaded = loadTrajectoryRelease({ dir: pristine, task: fixture.task })
    expect(loaded.splits.train.length).toBe(loaded.exportReport.splits.train?.rows)
    expect(loaded.splits.val[0]?.trajectory_format).toBe('qwen3.5-native-tools-v2')
  })

  it('one edited tool result: the re-executed call differs', () => {
    const dir = copy()
    const rows = readSplit(dir, 'val', fixture.task) as Row[]
    const index = rows.findIndex((row) => row.trajectory_class === 'multi_tool')
    const row = rows[index] as Row
    const detailMessage = row.messages[5] as Row['messages'][number]
    detailMessage.content = detailMessage.content.replace('"description": "', '"description": "Edited. ')
    rewriteSplit({ dir, split: 'val', rows, task: fixture.task })
    const report = validate(dir)
    expect(report.valid).toBe(false)
    expect(report.report_errors).toEqual([])
    expect(report.splits.val.errors).toEqual([
      `row ${index} (source_id ${row.source_id}): tool message 1 differs from the env's result for get_category_details`,
    ])
    expect(report.splits.train.errors).toEqual([])
    expect(() => loadTrajectoryRelease({ dir, task: fixture.task })).toThrow(
      /invalid_trajectory_release|not a valid trajectory release/,
    )
  })

  it('one edited id: a detail call asks for an id no earlier result surfaced', () => {
    const dir = copy()
    const rows = readSplit(dir, 'test', fixture.task) as Row[]
    const index = rows.findIndex((row) => row.trajectory_class === 'multi_tool')
    const row = rows[index] as Row
    const surfaced = new Set(
      (JSON.parse((row.messages[3] as Row['messages'][number]).content).candidates as { choice_id: string }[]).map(
        (c) => c.choice_id,
      ),
    )
    const unseen = ['1', '2', '3', '4', '5', '6', '7', '8'].find((id) => !surfaced.has(id)) as string
    const call = (row.messages[4] as Row['messages'][number]).tool_calls?.[0] as NonNullable<
      Row['messages'][number]['tool_calls']
    >[number]
    call.function.arguments = { choice_ids: [unseen, ...(call.function.arguments.choice_ids as string[]).slice(1)] }
    ;(row.tool_calls[1] as Row['tool_calls'][number]).arguments = call.function.arguments
    rewriteSplit({ dir, split: 'test', rows, task: fixture.task })
    const where = `row ${index} (source_id ${row.source_id})`
    expect(validate(dir).splits.test.errors).toEqual([
      `${where}: tool call 1 (get_category_details): choice ids ${unseen} did not come from an earlier tool result`,
      `${where}: tool message 1 differs from the env's result for get_category_details`,
    ])
  })

  it('one moved split assignment: the source id is in two splits and not in its canonical split', () => {
    const dir = copy()
    const val = readSplit(dir, 'val', fixture.task) as Row[]
    const train = readSplit(dir, 'train', fixture.task) as Row[]
    const moved = val[0] as Row
    rewriteSplit({ dir, split: 'train', rows: [...train, moved], task: fixture.task })
    const report = validate(dir)
    expect(report.valid).toBe(false)
    expect(report.cross_split_errors).toContain(
      `source_id ${moved.source_id} is in train and in val (val row 0 (source_id ${moved.source_id}))`,
    )
    expect(report.splits.train.errors).toEqual([
      `row ${train.length} (source_id ${moved.source_id}): the canonical split is val, but the row is in train`,
    ])
    // The report's class counts and source-id digest no longer match either.
    expect(
      report.report_errors.some((error) => error.includes("train.parquet source ids do not match export_report.json's digest")),
    ).toBe(true)
  })

  it('one changed byte of a Parquet file: the hash check names the file', () => {
    const dir = copy()
    const path = join(dir, 'train.parquet')
    const bytes = readFileSync(path)
    const at = Math.floor(bytes.length / 3)
    bytes[at] = (bytes[at] as number) ^ 0x01
    writeFileSync(path, bytes)
    const report = validate(dir)
    expect(report.valid).toBe(false)
    expect(report.report_errors.find((error) => error.startsWith('train.parquet sha256'))).toContain(
      'does not match export_report.json',
    )
    expect(report.splits.val.errors).toEqual([])
    expect(() => loadTrajectoryRelease({ dir, task: fixture.task })).toThrow(/train\.parquet sha256/)
  })

  it('a no_result row whose scoped search would surface the answer, and an answer leaked into the prompt', () => {
    const dir = copy()
    const rows = readSplit(dir, 'train', fixture.task) as (Row & { metadata: Record<string, string>; ground_truth: string })[]
    const index = rows.findIndex((row) => row.trajectory_class === 'direct')
    const row = rows[index] as (typeof rows)[number]
    const user = row.messages[1] as Row['messages'][number]
    user.content = `${user.content} ${row.ground_truth}`
    rewriteSplit({ dir, split: 'train', rows, task: fixture.task })
    const errors = validate(dir).splits.train.errors
    expect(errors).toContain(
      `row ${index} (source_id ${row.source_id}): the canonical ground truth ${row.ground_truth} appears in the system or user message`,
    )
    expect(errors).toContain(
      `row ${index} (source_id ${row.source_id}): the user message is not the env's prompt for this metadata`,
    )
  })

  it('one edited answer: the terminal JSON is not the canonical answer for the ground truth', () => {
    const dir = copy()
    const rows = readSplit(dir, 'train', fixture.task) as Row[]
    const last = (rows[7] as Row).messages.at(-1) as Row['messages'][number]
    const original = last.content
    last.content = original.replace(/"level": "L(\d)"/, (_match, digit) => `"level": "L${(Number(digit) % 4) + 1}"`)
    expect(last.content).not.toBe(original)
    rewriteSplit({ dir, split: 'train', rows, task: fixture.task })
    expect(validate(dir).splits.train.errors).toEqual([
      `row 7 (source_id ${(rows[7] as Row).source_id}): the answer ${last.content} is not the canonical terminal JSON for the ground truth`,
    ])
  })

  it('the CLI exits 1 and prints the row and reason', () => {
    const dir = copy()
    const rows = readSplit(dir, 'val', fixture.task) as Row[]
    const index = rows.findIndex((row) => row.tool_calls[0]?.name === 'search_categories')
    const row = rows[index] as Row
    const tool = row.messages[3] as Row['messages'][number]
    tool.content = tool.content.replace('"choice_id": "', '"choice_id": "9')
    rewriteSplit({ dir, split: 'val', rows, task: fixture.task })
    const result = runCli(['release', 'trajectories', 'validate', ...fixture.taskArgs, '--dataset-dir', dir])
    expect(result.status).toBe(1)
    const summary = JSON.parse(result.stdout.trim().split('\n').at(-1) as string)
    expect(summary.valid).toBe(false)
    expect(summary.splits.val.errors).toEqual([
      `row ${index} (source_id ${row.source_id}): tool message 0 differs from the env's result for ${row.tool_calls[0]?.name}`,
    ])
  })

  it('an extra file in the release is refused', () => {
    const dir = copy()
    writeFileSync(join(dir, 'notes.txt'), 'hello')
    expect(validate(dir).report_errors).toEqual(['unexpected file notes.txt in the release'])
  })
})
