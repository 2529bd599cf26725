/**
 * The runbook's order of operations through the real CLI, stage by stage: preprocess → canonical build →
 * audit (fails: the demo holds conflicting duplicates) → quarantine → split → audit (passes) → sft export →
 * sft validate; plus group splits, refusals to overwrite and a validator that catches tampering.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { type DemoFixture, demoFixture, temporaryDirectory } from './support/release-fixture.js'
import { runCli } from './support/run-cli.js'

let fixture: DemoFixture
let run: string
const lastJson = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1) as string)
const canonicalRecords = () =>
  readFileSync(join(run, 'canonical/steel_demo/all.json'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map(
      (line) =>
        JSON.parse(line.replace(/,$/, '')) as {
          id: string
          split: string | null
          metadata: { table_name: string; field_name: string }
        },
    )
const taskArgs = () => [
  '--dataset',
  'steel_demo',
  '--registry',
  fixture.path('registry'),
  '--corpus',
  fixture.path('corpus'),
  '--task-config',
  fixture.path('task'),
]
const auditArgs = (report: string, split: string) => [
  'release',
  'audit',
  'prompt-conflicts',
  '--bundle',
  '--canonical',
  `steel_demo=${join(run, 'canonical/steel_demo/all.json')}`,
  '--classification-standard',
  `steel_demo=${fixture.path('classification')}`,
  '--grading-standard',
  `steel_demo=${fixture.path('grading')}`,
  '--split',
  split,
  '--report',
  report,
]

beforeAll(async () => {
  fixture = await demoFixture({ rows: 400 })
  run = temporaryDirectory('stages')
})

describe('release stages through the CLI, in the runbook order', () => {
  it('runs every stage; the audit gate fails on the raw data and passes after quarantine', () => {
    const preprocess = runCli([
      'release',
      'preprocess',
      '--input',
      fixture.path('xlsx'),
      '--mapping',
      fixture.path('mapping'),
      '--dataset',
      'steel_demo',
      '--out',
      join(run, 'processed/steel_demo/all.json'),
      '--strip-trailing-codes',
      '--formal',
      '--config-file',
      fixture.path('datasets'),
      // No progress lines on a slow machine: stderr must hold no warning at all.
      '--quiet',
    ])
    expect(preprocess.stderr).toBe('')
    expect(lastJson(preprocess.stdout)).toMatchObject({ data_rows: 400, format: 'preprocess-report-v1' })
    const build = runCli([
      'release',
      'canonical',
      'build',
      '--dataset',
      'steel_demo',
      '--config-file',
      fixture.path('datasets'),
      '--canonical-dir',
      join(run, 'canonical'),
      '--processed-dir',
      join(run, 'processed'),
      '--registry-dir',
      join(fixture.demo, 'assets/registries'),
      '--corpus-dir',
      join(fixture.demo, 'assets/corpora'),
      '--formal',
      '--allow-unresolved',
    ])
    expect(build.status).toBe(0)
    expect(lastJson(build.stdout).status_counts).toMatchObject({
      placeholder: expect.any(Number),
      code_unresolved: expect.any(Number),
      unlabeled: expect.any(Number),
    })

    const raw = runCli(auditArgs(join(run, 'audits/raw.json'), 'all'))
    expect(raw.status).toBe(1)
    const rawReport = readFileSync(join(run, 'audits/raw.json'), 'utf8')
    expect(JSON.parse(rawReport)).toMatchObject({
      format: 'field-prompt-identifiability-bundle-v1',
      status: 'failed',
      conflict_keys: expect.any(Number),
    })
    expect(JSON.parse(rawReport).conflict_keys).toBeGreaterThanOrEqual(3)
    // No field or table name in the clear; a conflict's records are named by id and spreadsheet row.
    for (const record of canonicalRecords().slice(0, 50)) {
      expect(rawReport.includes(`"${record.metadata.table_name}"`)).toBe(false)
      expect(rawReport.includes(`"${record.metadata.field_name}"`)).toBe(false)
    }
    const [conflict] = JSON.parse(rawReport).datasets.steel_demo.conflicts
    const byId = new Map(canonicalRecords().map((record) => [record.id, record]))
    expect(conflict.records.length).toBe(conflict.record_count)
    for (const listed of conflict.records) {
      expect(listed.provenance).toEqual((byId.get(listed.id) as unknown as { provenance: unknown }).provenance)
      expect(listed.provenance.row).toBeGreaterThan(1)
    }

    expect(
      runCli([
        'release',
        'canonical',
        'quarantine-conflicts',
        '--canonical-dir',
        join(run, 'canonical'),
        '--dataset',
        'steel_demo',
      ]).status,
    ).toBe(0)
    const split = runCli([
      'release',
      'canonical',
      'split',
      '--canonical-dir',
      join(run, 'canonical'),
      '--dataset',
      'steel_demo',
      '--split-type',
      'random',
      '--seed',
      '42',
    ])
    expect(split.status).toBe(0)
    expect(lastJson(split.stdout).train_coverage).toEqual({ missing_categories: [], missing_levels: [], moves: [] })
    const again = runCli(['release', 'canonical', 'split', '--canonical-dir', join(run, 'canonical'), '--dataset', 'steel_demo'])
    expect([again.status, again.stderr]).toEqual([2, expect.stringContaining('error[output_exists]')])

    expect(runCli(auditArgs(join(run, 'audits/train.json'), 'train')).status).toBe(0)
    const exported = runCli([
      'release',
      'sft',
      'export',
      '--canonical',
      join(run, 'canonical/steel_demo/all.json'),
      '--out-dir',
      join(run, 'release'),
      ...taskArgs(),
      '--grading-manifest',
      fixture.path('gradingManifest'),
      '--formal',
      '--config-file',
      fixture.path('datasets'),
    ])
    expect(exported.status).toBe(0)
    expect(lastJson(exported.stdout)).toMatchObject({ label_gap_gate: 'passed' })
    const validated = runCli([
      'release',
      'sft',
      'validate',
      '--dataset-dir',
      join(run, 'release'),
      ...taskArgs(),
      '--grading-config',
      fixture.path('grading'),
      '--report',
      join(run, 'validation.json'),
    ])
    expect(validated.status).toBe(0)
    expect(JSON.parse(readFileSync(join(run, 'validation.json'), 'utf8'))).toMatchObject({
      valid: true,
      cross_split_errors: [],
      report_errors: [],
    })
  })

  it('the validator catches a changed file and a wrong recorded hash', () => {
    const copy = join(temporaryDirectory('tampered'), 'release')
    cpSync(join(run, 'release'), copy, { recursive: true })
    const report = JSON.parse(readFileSync(join(copy, 'export_report.json'), 'utf8'))
    report.release.artifacts_sha256['val.parquet'] = 'f'.repeat(64)
    writeFileSync(join(copy, 'export_report.json'), JSON.stringify(report))
    const bytes = readFileSync(join(copy, 'test.parquet'))
    bytes[Math.floor(bytes.length / 2)] = (bytes[Math.floor(bytes.length / 2)] as number) ^ 0xff
    writeFileSync(join(copy, 'test.parquet'), bytes)
    const result = runCli([
      'release',
      'sft',
      'validate',
      '--dataset-dir',
      copy,
      ...taskArgs(),
      '--grading-config',
      fixture.path('grading'),
    ])
    expect(result.status).toBe(1)
    const summary = lastJson(result.stdout)
    expect(summary.valid).toBe(false)
    expect(summary.report_errors.join('\n')).toMatch(/val\.parquet sha256 .* does not match/)
    expect(summary.report_errors.join('\n')).toMatch(/test\.parquet sha256 .* does not match/)
    expect(summary.splits.test.error_count).toBeGreaterThan(0)
  })

  it('a group split keeps every table in one split; --formal refuses other datasets', () => {
    const group = runCli([
      'release',
      'canonical',
      'split',
      '--canonical-dir',
      join(run, 'canonical'),
      '--dataset',
      'steel_demo',
      '--split-type',
      'group',
      '--group-key',
      'metadata.table_name',
      '--overwrite',
    ])
    expect(group.status).toBe(0)
    const tables = new Map<string, Set<string>>()
    for (const record of canonicalRecords()) {
      if (!record.split) continue
      tables.set(record.metadata.table_name, (tables.get(record.metadata.table_name) ?? new Set()).add(record.split))
    }
    expect([...tables.values()].every((splits) => splits.size === 1)).toBe(true)
    expect(new Set([...tables.values()].flatMap((splits) => [...splits]))).toEqual(new Set(['train', 'val', 'test']))
    const formal = runCli([
      'release',
      'preprocess',
      '--input',
      fixture.path('xlsx'),
      '--mapping',
      fixture.path('mapping'),
      '--dataset',
      'shougang',
      '--out',
      join(run, 'other.json'),
      '--formal',
      '--config-file',
      fixture.path('datasets'),
    ])
    expect([formal.status, formal.stderr]).toEqual([2, expect.stringContaining('error[not_a_formal_dataset]')])
  })
})
