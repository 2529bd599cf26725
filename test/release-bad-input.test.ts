/**
 * Every stage rejects bad input with an error naming the file, spreadsheet row, field and reason, and
 * publishes nothing (a failed-audit JSON records the attempt instead).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { demoHeaders } from '../src/envs/grading/demo/demo-taxonomy.js'
import { runCanonicalBuild } from '../src/release/canonical/run-canonical-build.js'
import { runCanonicalSplit } from '../src/release/canonical/run-canonical-split.js'
import { runQuarantineConflicts } from '../src/release/canonical/run-quarantine-conflicts.js'
import { runDemoData } from '../src/release/demo/write-demo-data.js'
import { runMixtureBuild } from '../src/release/mixtures/run-mixture-build.js'
import { type ReleaseLineLayout, releaseLineLayout } from '../src/release/pipeline/release-line-layout.js'
import type { ReleaseLineOptions } from '../src/release/pipeline/release-line-options.js'
import { runReleaseLine } from '../src/release/pipeline/run-release-line.js'
import { runPreprocess } from '../src/release/preprocess/run-preprocess.js'
import { runSftExport } from '../src/release/sft/run-sft-export.js'
import { buildXlsx, type XlsxCell } from '../src/release/xlsx/write-xlsx.js'
import {
  type DemoFixture,
  demoFixture,
  releaseLineFiles,
  temporaryDirectory,
  thrown,
  treeHashes,
} from './support/release-fixture.js'
import { runCli } from './support/run-cli.js'

let fixture: DemoFixture
let work: string
const header = [...demoHeaders]
const row = (overrides: Partial<Record<(typeof demoHeaders)[number], XlsxCell>> = {}): XlsxCell[] => {
  const base: Record<string, XlsxCell> = {
    数据库名: 'mes_prod',
    数据库描述: '制造执行系统生产库',
    表名: 'pr_coil_actual',
    表描述: '钢卷生产实绩',
    字段名: 'coil_no',
    字段描述: '钢卷号',
    字段类型: 'VARCHAR2(20)',
    一级分类: '生产数据域',
    二级分类: '生产实绩',
    三级分类: '产量实绩',
    四级分类: '生产实绩',
    分级: 'L2',
  }
  return header.map((name) => (name in overrides ? overrides[name] : base[name]) as XlsxCell)
}
const xlsx = (name: string, rows: XlsxCell[][], sheetHeader: string[] = header) => {
  const path = join(work, name)
  writeFileSync(path, buildXlsx([{ name: 'Sheet1', rows: [sheetHeader, ...rows] }]))
  return path
}
const preprocess = (input: string, output = join(work, `out-${Math.random().toString(36).slice(2)}.json`)) =>
  runPreprocess({ input, mapping: fixture.path('mapping'), dataset: fixture.dataset, output })

async function splitCanonical(): Promise<{ canonical: string; dir: string }> {
  const dir = temporaryDirectory('canonical')
  await runPreprocess({
    input: fixture.path('xlsx'),
    mapping: fixture.path('mapping'),
    dataset: fixture.dataset,
    output: join(dir, 'processed.json'),
    stripTrailingCodes: true,
  })
  await runCanonicalBuild({
    dataset: fixture.dataset,
    configFile: fixture.path('datasets'),
    canonicalDir: join(dir, 'canonical'),
    processed: join(dir, 'processed.json'),
    registry: fixture.path('registry'),
    corpus: fixture.path('corpus'),
    allowUnresolved: true,
  })
  await runQuarantineConflicts({ canonicalDir: join(dir, 'canonical'), dataset: fixture.dataset })
  await runCanonicalSplit({ canonicalDir: join(dir, 'canonical'), dataset: fixture.dataset, splitType: 'random', seed: 42 })
  return { canonical: join(dir, 'canonical', fixture.dataset, 'all.json'), dir }
}

const taskFiles = () => ({
  dataset: fixture.dataset,
  registry: fixture.path('registry'),
  corpus: fixture.path('corpus'),
  taskConfig: fixture.path('task'),
})

beforeAll(async () => {
  fixture = await demoFixture({ rows: 300 })
  work = temporaryDirectory('bad-input')
})

describe('preprocess rejects bad spreadsheets, naming file, sheet, row and column', () => {
  it('wrong headers: a mapped column is missing, a header repeats', async () => {
    const renamed = header.map((name) => (name === '分级' ? '敏感级别' : name))
    const output = join(work, 'wrong-headers.json')
    const error = await thrown(() => preprocess(xlsx('wrong-headers.xlsx', [row()], renamed), output))
    expect(error.code).toBe('missing_column')
    expect(error.issues[0]).toMatchObject({
      path: 'wrong-headers.xlsx:Sheet1:row 1:分级',
      message: expect.stringContaining('敏感级别'),
    })
    expect(existsSync(output)).toBe(false)
    const audit = JSON.parse(readFileSync(`${output}.failed.json`, 'utf8'))
    expect(audit).toMatchObject({ status: 'failed', stage: 'preprocess', published: false, error: { code: 'missing_column' } })
    const repeated = await thrown(() => preprocess(xlsx('repeated.xlsx', [[...row(), 'x']], [...header, '表名'])))
    expect(repeated.issues[0]).toMatchObject({ code: 'duplicate_header', path: 'repeated.xlsx:Sheet1:row 1:表名' })
  })

  it('unknown level labels and empty field names name their row and column; every bad row is listed', async () => {
    const error = await thrown(() =>
      preprocess(
        xlsx('labels.xlsx', [
          row(),
          row({ 字段名: 'coil_weight_t' }),
          row({ 字段名: 'slab_no', 分级: 'L7' }),
          row({ 字段名: '  ' }),
          row({ 字段名: 'x', 分级: '机密' }),
        ]),
      ),
    )
    expect(error.code).toBe('unknown_level')
    expect(error.issues.map((issue) => `${issue.code} ${issue.path}`)).toEqual([
      'unknown_level labels.xlsx:Sheet1:row 4:分级',
      'empty_field_name labels.xlsx:Sheet1:row 5:字段名',
      'unknown_level labels.xlsx:Sheet1:row 6:分级',
    ])
    expect(error.issues[0]?.message).toContain('"L7"')
  })

  it('duplicate rows: exact copies are dropped, conflicting copies are rejected with both row numbers', async () => {
    const output = join(work, 'duplicates-ok.json')
    const report = await preprocess(xlsx('dup-ok.xlsx', [row(), row(), row({ 字段名: 'coil_weight_t' })]), output)
    expect(report.exact_duplicates).toEqual({ count: 1, rows: [[2, 3]] })
    const conflict = await thrown(() =>
      preprocess(xlsx('dup-conflict.xlsx', [row(), row({ 字段名: 'coil_weight_t' }), row({ 四级分类: '库存与出入库' })])),
    )
    expect(conflict.code).toBe('conflicting_duplicate')
    expect(conflict.issues[0]).toMatchObject({
      path: 'dup-conflict.xlsx:Sheet1:row 4:字段名',
      message: expect.stringContaining('rows 2 and 4'),
    })
  })

  it('corrupt, foreign and missing workbooks are refused by name', async () => {
    const truncated = join(work, 'truncated.xlsx')
    writeFileSync(truncated, readFileSync(fixture.path('xlsx')).subarray(0, 4000))
    expect(await thrown(() => preprocess(truncated))).toMatchObject({ code: 'xlsx_unreadable', path: 'truncated.xlsx' })
    const foreign = join(work, 'foreign.xlsx')
    writeFileSync(foreign, 'id,name\n1,x\n')
    expect(await thrown(() => preprocess(foreign))).toMatchObject({ code: 'xlsx_unreadable', path: 'foreign.xlsx' })
    expect(await thrown(() => preprocess(join(work, 'absent.xlsx')))).toMatchObject({ code: 'input_missing' })
    expect(await thrown(() => preprocess(fixture.path('mapping')))).toMatchObject({ code: 'unsupported_input' })
  })

  it('the CLI prints error[code] (file:sheet:row:column) and exits 2', () => {
    const renamed = header.map((name) => (name === '分级' ? '级别' : name))
    const input = xlsx('cli-headers.xlsx', [row()], renamed)
    const result = runCli([
      'release',
      'preprocess',
      '--input',
      input,
      '--mapping',
      fixture.path('mapping'),
      '--dataset',
      fixture.dataset,
      '--out',
      join(work, 'cli.json'),
    ])
    expect(result.status).toBe(2)
    expect(result.stderr).toContain('error[missing_column] (cli-headers.xlsx:Sheet1:row 1:分级)')
    expect(existsSync(join(work, 'cli.json'))).toBe(false)
  })
})

describe('canonical build rejects bad assets and records', () => {
  it('a corpus that does not cover the registry names every missing and extra id; nothing is published', async () => {
    const corpus = JSON.parse(readFileSync(fixture.path('corpus'), 'utf8'))
    corpus.categories[3].category_id = 'Z9-9'
    const badCorpus = join(work, 'bad.corpus.json')
    writeFileSync(badCorpus, JSON.stringify(corpus))
    const canonicalDir = join(work, 'canonical-mismatch')
    await preprocess(fixture.path('xlsx'), join(work, 'processed-mismatch.json'))
    const error = await thrown(() =>
      runCanonicalBuild({
        dataset: fixture.dataset,
        configFile: fixture.path('datasets'),
        canonicalDir,
        processed: join(work, 'processed-mismatch.json'),
        registry: fixture.path('registry'),
        corpus: badCorpus,
      }),
    )
    expect(error.code).toBe('corpus_registry_mismatch')
    expect(error.issues.map((issue) => issue.path)).toEqual([
      `${fixture.path('registry')}:categories.3.category_id`,
      `${badCorpus}:categories.3.category_id`,
    ])
    expect(existsSync(join(canonicalDir, fixture.dataset))).toBe(false)
    expect(existsSync(join(canonicalDir, `${fixture.dataset}.failed.json`))).toBe(true)
  })

  it('a tampered processed record (stale id) is refused with its file, position and spreadsheet row', async () => {
    const processed = join(work, 'processed-stale.json')
    await preprocess(fixture.path('xlsx'), processed)
    const lines = readFileSync(processed, 'utf8').split('\n')
    lines[3] = (lines[3] as string).replace(/"field_name":"[^"]*"/, '"field_name":"renamed_by_hand"')
    writeFileSync(processed, lines.join('\n'))
    const error = await thrown(() =>
      runCanonicalBuild({
        dataset: fixture.dataset,
        configFile: fixture.path('datasets'),
        canonicalDir: join(work, 'canonical-stale'),
        processed,
        registry: fixture.path('registry'),
        corpus: fixture.path('corpus'),
      }),
    )
    expect(error.code).toBe('stale_record_id')
    expect(error.issues[0]?.path).toMatch(/^processed-stale\.json:record 3 \(steel_demo\.xlsx:数据资产目录:row 4\):id$/)
  })

  it('an unconfigured dataset and a non-formal dataset under --formal are refused', async () => {
    const processed = join(work, 'processed-formal.json')
    await runPreprocess({
      input: fixture.path('xlsx'),
      mapping: fixture.path('mapping'),
      dataset: 'other_plant',
      output: processed,
    })
    const options = {
      configFile: fixture.path('datasets'),
      canonicalDir: join(work, 'canonical-formal'),
      processed,
      registry: fixture.path('registry'),
      corpus: fixture.path('corpus'),
    }
    expect(await thrown(() => runCanonicalBuild({ ...options, dataset: 'other_plant' }))).toMatchObject({
      code: 'unknown_dataset',
    })
    expect(await thrown(() => runCanonicalBuild({ ...options, dataset: 'other_plant', formal: true }))).toMatchObject({
      code: 'not_a_formal_dataset',
    })
    expect(await thrown(() => runCanonicalBuild({ ...options, dataset: '../escape' }))).toMatchObject({
      code: 'invalid_dataset_name',
    })
    expect(existsSync(join(work, 'escape.failed.json'))).toBe(false)
  })
})

describe('sft export rejects bad inputs and publishes nothing', () => {
  let canonical: string

  beforeAll(async () => {
    canonical = (await splitCanonical()).canonical
  })

  it('a tampered grading manifest hash', async () => {
    const manifest = JSON.parse(readFileSync(fixture.path('gradingManifest'), 'utf8'))
    manifest.datasets[fixture.dataset].sha256 = `${'0'.repeat(63)}1`
    const tampered = join(fixture.demo, 'standards', 'tampered-manifest.json')
    writeFileSync(tampered, JSON.stringify(manifest))
    const outputDir = join(work, 'release-tampered')
    const error = await thrown(() => runSftExport({ ...taskFiles(), gradingManifest: tampered, canonical, outputDir }))
    expect(error).toMatchObject({ code: 'grading_hash_mismatch', path: `${tampered}:datasets.${fixture.dataset}.sha256` })
    expect(existsSync(outputDir)).toBe(false)
    expect(JSON.parse(readFileSync(`${outputDir}.failed.json`, 'utf8'))).toMatchObject({
      stage: 'sft export',
      error: { code: 'grading_hash_mismatch' },
    })
    const escaping = join(fixture.demo, 'standards', 'escaping-manifest.json')
    writeFileSync(
      escaping,
      JSON.stringify({ datasets: { [fixture.dataset]: { path: '../config/datasets.json', sha256: 'a'.repeat(64) } } }),
    )
    expect(await thrown(() => runSftExport({ ...taskFiles(), gradingManifest: escaping, canonical, outputDir }))).toMatchObject({
      code: 'path_escape',
    })
    expect(
      await thrown(() =>
        runSftExport({
          ...taskFiles(),
          gradingManifest: fixture.path('gradingManifest'),
          gradingConfig: fixture.path('grading'),
          canonical,
          outputDir,
        }),
      ),
    ).toMatchObject({
      code: 'invalid_option',
    })
  })

  it('an existing output directory is never overwritten', async () => {
    const outputDir = join(work, 'release-existing')
    mkdirSync(outputDir, { recursive: true })
    writeFileSync(join(outputDir, 'keep.txt'), 'precious')
    const error = await thrown(() =>
      runSftExport({ ...taskFiles(), gradingConfig: fixture.path('grading'), canonical, outputDir }),
    )
    expect(error).toMatchObject({ code: 'output_exists', path: outputDir })
    expect(treeHashes(outputDir)).toEqual({ 'keep.txt': expect.any(String) })
    expect(readFileSync(join(outputDir, 'keep.txt'), 'utf8')).toBe('precious')
    expect(await thrown(() => runDemoData({ out: fixture.demo }))).toMatchObject({ code: 'output_exists' })
    expect(await thrown(() => preprocess(fixture.path('xlsx'), fixture.path('mapping')))).toMatchObject({ code: 'output_exists' })
  })

  it('a registry/corpus mismatch, an unsplit record and a label gap are refused', async () => {
    const corpus = JSON.parse(readFileSync(fixture.path('corpus'), 'utf8'))
    corpus.categories.pop()
    const shortCorpus = join(work, 'short.corpus.json')
    writeFileSync(shortCorpus, JSON.stringify(corpus))
    const outputDir = join(work, 'release-refused')
    const mismatch = await thrown(() =>
      runSftExport({ ...taskFiles(), corpus: shortCorpus, gradingConfig: fixture.path('grading'), canonical, outputDir }),
    )
    expect(mismatch.code).toBe('corpus_registry_mismatch')
    expect(mismatch.issues[0]?.message).toContain('has no corpus entry')

    const lines = readFileSync(canonical, 'utf8').split('\n')
    const index = lines.findIndex((line) => line.includes('"resolution_status":"resolved"'))
    const unsplit = join(work, 'unsplit.json')
    writeFileSync(
      unsplit,
      lines
        .map((line, position) => (position === index ? line.replace(/"split":"(train|val|test)"/, '"split":null') : line))
        .join('\n'),
    )
    const missing = await thrown(() =>
      runSftExport({ ...taskFiles(), gradingConfig: fixture.path('grading'), canonical: unsplit, outputDir }),
    )
    expect(missing.code).toBe('missing_split')
    expect(missing.issues[0]?.path).toMatch(
      new RegExp(`^unsplit\\.json:record ${index} \\(steel_demo\\.xlsx:数据资产目录:row \\d+\\):split$`),
    )

    // Move every record of one category out of train: val/test labels absent from train block the export.
    const moved = lines.map((line) =>
      line.includes('"category_id":"A2-1"') ? line.replace('"split":"train"', '"split":"val"') : line,
    )
    const gapped = join(work, 'gapped.json')
    writeFileSync(gapped, moved.join('\n'))
    const gap = await thrown(() =>
      runSftExport({ ...taskFiles(), gradingConfig: fixture.path('grading'), canonical: gapped, outputDir }),
    )
    expect(gap).toMatchObject({ code: 'label_gap', message: expect.stringContaining('A2-1 (in val, not in train)') })
    expect(existsSync(outputDir)).toBe(false)
    const waived = await runSftExport({
      ...taskFiles(),
      gradingConfig: fixture.path('grading'),
      canonical: gapped,
      outputDir,
      allowLabelGaps: ['A2-1'],
    })
    expect(waived.label_gap_gate).toMatchObject({ status: 'waived', waived: [{ label: 'A2-1', split: 'val' }] })
    // Issue 33: the hint gives the waiver's real syntax, and why a mixture then refuses the release.
    expect(gap.message).toContain("waive with --allow-label-gaps 'A2-1' (or --allow-any-label-gap)")
    expect(gap.message).toContain('`mixture build` refuses it: a mixture must train on every label it evaluates')
    const mixed = await thrown(() =>
      runMixtureBuild({
        ...taskFiles(),
        family: 'sft',
        inputs: [`${fixture.dataset}=${outputDir}`],
        gradingManifest: fixture.path('gradingManifest'),
        outputDir: join(work, 'mixture-of-waived'),
      }),
    )
    expect(mixed.code).toBe('mixture_input_invalid')
    expect(mixed.issues.find((issue) => issue.path.endsWith(':label_gap_gate'))?.message).toMatch(
      /it is waived\): a mixture must train on every label it evaluates, so split the dataset again/,
    )
  })
})

describe('the in-process line stops before publishing anything', () => {
  /** Runs the line into a new directory with `extra` options; returns its layout and what it threw. */
  async function failedLine(label: string, extra: (layout: ReleaseLineLayout) => Partial<ReleaseLineOptions>) {
    const out = join(temporaryDirectory(label), 'out')
    const layout = releaseLineLayout(out, fixture.dataset)
    const error = await thrown(() =>
      runReleaseLine({ ...releaseLineFiles(fixture), out, stripTrailingCodes: true, allowUnresolved: true, ...extra(layout) }),
    )
    return { layout, error }
  }

  it('with quarantine off, conflicting prompt keys stop it after the raw audit report, with nothing published', async () => {
    const { layout, error } = await failedLine('line-no-quarantine', () => ({ quarantine: false }))
    expect(error).toMatchObject({ code: 'prompt_conflicts', path: layout.rawAudit })
    const raw = JSON.parse(readFileSync(layout.rawAudit, 'utf8'))
    expect(raw).toMatchObject({ status: 'failed', conflict_keys: expect.any(Number) })
    expect(raw.conflict_keys).toBeGreaterThan(0)
    for (const release of [layout.canonical, layout.sftRelease, layout.audit]) expect(existsSync(release)).toBe(false)
  })

  it('a publication that fails on its own surfaces its error, and the audits are not written as if it passed', async () => {
    const { layout, error } = await failedLine('line-publication-fails', (layout) => ({
      // Once the records are split, a file takes the SFT release's place: its publication must fail.
      onStage(stage) {
        if (stage !== 'split') return
        mkdirSync(dirname(layout.sftRelease), { recursive: true })
        writeFileSync(layout.sftRelease, 'in the way')
      },
    }))
    expect(error).toMatchObject({ code: 'output_exists', path: layout.sftRelease })
    expect(existsSync(layout.audit)).toBe(false)
  })
})
