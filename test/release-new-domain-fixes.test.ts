/**
 * Issue 16's fixes 1, 2, 4, 6, 7 and CSV input, each on the hospital fixture (test/fixtures/hospital), in
 * process. Fixes 3 and 5 and the runbook itself: test/release-runbook-hospital.test.ts.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runPromptAudit } from '../src/release/audit/run-prompt-audit.js'
import { loadCanonicalInputs, runCanonicalBuild } from '../src/release/canonical/run-canonical-build.js'
import { runCanonicalSplit } from '../src/release/canonical/run-canonical-split.js'
import { runQuarantineConflicts } from '../src/release/canonical/run-quarantine-conflicts.js'
import { parseDatasetsFile } from '../src/release/contracts/dataset-config.js'
import { parseCsv } from '../src/release/preprocess/read-csv-rows.js'
import { RowPreprocessor } from '../src/release/preprocess/row-preprocessor.js'
import { runPreprocess } from '../src/release/preprocess/run-preprocess.js'
import { runRlExport } from '../src/release/rl/run-rl-export.js'
import { runRlValidate } from '../src/release/rl/run-rl-validate.js'
import { readXlsxRows } from '../src/release/xlsx/read-xlsx-rows.js'
import { workbookSheets } from '../src/release/xlsx/workbook-sheets.js'
import { temporaryDirectory, thrown } from './support/release-fixture.js'
import { repositoryRoot } from './support/run-cli.js'
import { runCliInProcess } from './support/run-cli-in-process.js'

const dataset = 'hospital_demo'
const at = (relative: string) => resolve(import.meta.dirname, 'fixtures/hospital', relative)
const files = {
  xlsx: at(`raw/${dataset}.xlsx`),
  mapping: at(`assets/mappings/${dataset}.mapping.json`),
  datasets: at('config/datasets.json'),
  task: at(`config/${dataset}.task.json`),
  registry: at(`assets/registries/${dataset}.registry.json`),
  corpus: at(`assets/corpora/${dataset}.corpus.json`),
  classification: at(`standards/${dataset}.classification.json`),
  grading: at(`standards/${dataset}.grading.json`),
}
const work = temporaryDirectory('new-domain')
const canonicalDir = join(work, 'canonical')
const canonical = join(canonicalDir, dataset, 'all.json')
const rlRelease = join(work, 'rl')
const manifest = join(work, 'grading-manifest.json')
const children: ChildProcess[] = []
const readLines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line.replace(/,$/, '')))
const task = { dataset, registry: files.registry, corpus: files.corpus, taskConfig: files.task }
beforeAll(async () => {
  await runPreprocess({ input: files.xlsx, mapping: files.mapping, dataset, output: join(work, 'processed.json') })
  await runCanonicalBuild({ ...task, configFile: files.datasets, canonicalDir, processed: join(work, 'processed.json') })
  await runCanonicalSplit({ canonicalDir, dataset, splitType: 'random', seed: 42 })
  writeFileSync(join(work, 'grading.json'), readFileSync(files.grading))
  const sha256 = createHash('sha256').update(readFileSync(files.grading)).digest('hex')
  writeFileSync(manifest, JSON.stringify({ datasets: { [dataset]: { path: 'grading.json', sha256 } } }))
  await runRlExport({ ...task, gradingConfig: files.grading, canonical, outputDir: rlRelease })
}, 60_000)
afterAll(() => {
  for (const child of children) child.kill('SIGTERM')
})

describe('fix 1: path ids with codes in the corpus and a repeated leaf name', () => {
  it('a path-id dataset builds no leaf-code map; a code-id dataset still refuses the ambiguous name', () => {
    const inputs = loadCanonicalInputs({ dataset, configFile: files.datasets, registry: files.registry, corpus: files.corpus })
    expect(inputs.codeByLeaf.size).toBe(0)
    const codeConfig = join(work, 'code-datasets.json')
    const config = JSON.parse(readFileSync(files.datasets, 'utf8'))
    config.datasets[dataset].id_strategy = 'code'
    writeFileSync(codeConfig, JSON.stringify(config))
    expect(() =>
      loadCanonicalInputs({ dataset, configFile: codeConfig, registry: files.registry, corpus: files.corpus }),
    ).toThrow(/基本信息" maps to codes P1-1-1 and S1-1-1/)
  })
})

describe('fix 2: labelled records the line cannot resolve are loud', () => {
  it('kept trailing codes stop the canonical build (exit 2, counts per reason) unless --allow-unresolved', async () => {
    const processed = join(work, 'processed-kept.json')
    await runPreprocess({ input: files.xlsx, mapping: files.mapping, dataset, output: processed, stripTrailingCodes: false })
    const args = (directory: string, ...more: string[]) => [
      'release',
      'canonical',
      'build',
      '--dataset',
      dataset,
      '--config-file',
      files.datasets,
      '--canonical-dir',
      directory,
      '--processed',
      processed,
      '--registry',
      files.registry,
      '--corpus',
      files.corpus,
      ...more,
    ]
    const refused = await runCliInProcess(args(join(work, 'kept-refused')))
    expect(refused.status).toBe(2)
    expect(refused.stderr).toMatch(/error\[unresolved_labels\].* 18 labelled record\(s\).*missing_leaf 18/)
    expect(existsSync(join(work, 'kept-refused', dataset))).toBe(false)
    const accepted = await runCliInProcess(args(join(work, 'kept-accepted'), '--allow-unresolved'))
    expect(accepted.status).toBe(0)
    expect(accepted.stderr).toContain(
      'warning[unresolved_labels] hospital_demo: 18 labelled record(s) not resolved: missing_leaf 18',
    )
    const report = JSON.parse(readFileSync(join(work, 'kept-accepted', dataset, 'resolution_report.json'), 'utf8'))
    expect(report.labels).toMatchObject({ lost: 18, lost_by_reason: { missing_leaf: 18 } })
  })
})

describe('fix 4: sheet names of a workbook written by openpyxl', () => {
  it('reads names and tab order from xl/workbook.xml through its absolute relationship targets', async () => {
    expect(workbookSheets(files.xlsx)).toEqual([
      { name: '字段清单', part: 'xl/worksheets/sheet1.xml' },
      { name: '说明', part: 'xl/worksheets/sheet2.xml' },
    ])
    for (const [sheet, first] of [
      [undefined, '数据库名'],
      ['说明', '本表为虚构的医院数据资产目录，仅用于测试。'],
    ] as const) {
      const source = readXlsxRows({ path: files.xlsx, sheets: [sheet ?? '字段清单'] })
      const rows = []
      for await (const row of source.rows) rows.push(row)
      expect([source.sheetName(), rows[0]?.cells[0]]).toEqual([sheet ?? '字段清单', first])
    }
    const missing = readXlsxRows({ path: files.xlsx, sheets: ['Sheet1'] })
    expect(await thrown(async () => missing.rows[Symbol.asyncIterator]().next())).toMatchObject({
      code: 'sheet_not_found',
      message: expect.stringContaining('sheets: 字段清单, 说明'),
    })
  })
})

describe('fix 6: mock-llm serves a grading release to the rollout gate', () => {
  /** The release and the task files it was built from, as both the mock and the gate take them. */
  const releaseArgs = [
    '--release',
    rlRelease,
    '--split',
    'val',
    '--registry',
    files.registry,
    '--corpus',
    files.corpus,
    '--task-config',
    files.task,
    '--grading-manifest',
    manifest,
  ]
  it('mock-llm --env grading-v1 --release plays every val row; the oracle gets all of them right', async () => {
    const mock = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        resolve(repositoryRoot, 'src/cli/run.ts'),
        'mock-llm',
        '--env',
        'grading-v1',
        '--policy',
        'oracle',
        ...releaseArgs,
        '--format',
        'qwen3.5',
        '--no-usage',
      ],
      { cwd: repositoryRoot },
    )
    children.push(mock)
    let stderr = ''
    mock.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const line = await new Promise<string>((resolveLine, reject) => {
      createInterface({ input: mock.stdout }).once('line', resolveLine)
      mock.once('exit', () => reject(new Error(`mock-llm exited: ${stderr}`)))
    })
    const { url, model, episodes } = JSON.parse(line) as { url: string; model: string; episodes: number }
    const report = join(work, 'gate.json')
    const gate = await runCliInProcess([
      'gate',
      'rollout',
      ...releaseArgs,
      '--base-url',
      url,
      '--model',
      model,
      '--mode',
      'qwen3.5',
      '--report',
      report,
    ])
    // The mock plays the oracle, so every val row scores: a 100% rate fails the formal [0.05, 0.30] gate (exit 1).
    expect(gate.status, gate.stderr).toBe(1)
    const parsed = JSON.parse(readFileSync(report, 'utf8'))
    expect(episodes).toBe(readLines(canonical).filter((record) => record.split === 'val').length)
    // The gate plays each row `limits.samples` times (default 2): every one of them scores.
    expect(parsed.limits.samples).toBe(2)
    const played = episodes * parsed.limits.samples
    expect(parsed).toMatchObject({ status: 'failed', numerator: played, denominator: played })
  }, 60_000)
})

describe('fix 7: the smaller gaps', () => {
  it('a blank (or merged) table-name cell is refused at preprocess with its row', () => {
    const header = ['数据库名', '表名', '字段名', '三级分类', '分级']
    const mapping = new Map(
      Object.entries({
        数据库名: 'database_name',
        表名: 'table_name',
        字段名: 'field_name',
        三级分类: 'level_3',
        分级: 'data_level',
      }),
    ) as never
    const source = { dataset, file: 'merged.xlsx', sha256: 'a'.repeat(64), sheet: '字段清单' }
    const processor = new RowPreprocessor({ source, mapping }, header)
    processor.add(2, ['his', 'his_patient', 'name', '基本信息', 'L3'])
    processor.add(3, ['his', '', 'gender', '基本信息', 'L3'])
    expect(processor.issues).toEqual([
      {
        code: 'empty_table_name',
        path: 'merged.xlsx:字段清单:row 3:表名',
        message: 'table_name is empty (a blank or merged cell): every row needs its own table name',
      },
    ])
  })

  it('a killed publisher leaves no stale staging behind the next split', async () => {
    const dead = spawnSync(process.execPath, ['-e', '']).pid as number
    const stale = join(canonicalDir, `.${dataset}.staging-${dead}-1`)
    mkdirSync(stale)
    writeFileSync(join(stale, 'all.json'), '[]')
    await runCanonicalSplit({ canonicalDir, dataset, splitType: 'random', seed: 42, overwrite: true })
    expect(existsSync(stale)).toBe(false)
  })

  it('registry_derivation is honoured or refused, never ignored', () => {
    const parse = (config: object) => () => parseDatasetsFile({ datasets: { [dataset]: config } }, 'datasets.json')
    expect(parse({ registry_derivation: 'dataset-universe' })).toThrow(/dataset-universe.*not supported/)
    expect(parse({ registry_source: 'steel_demo' })).toThrow(/set registry_derivation to "shared-standard"/)
    expect(parse({ registry_derivation: 'shared-standard', registry_source: 'steel_demo' })).not.toThrow()
  })

  it('rl validate --canonical checks sources, labels and splits against the canonical records', async () => {
    const options = { ...task, gradingConfig: files.grading, datasetDir: rlRelease }
    expect((await runRlValidate({ ...options, canonical })).canonical_errors).toEqual([])
    const moved = join(work, 'moved.json')
    const records = readLines(canonical)
    const index = records.findIndex((record) => record.split === 'val')
    records[index].split = 'train'
    writeFileSync(moved, `[\n${records.map((record) => JSON.stringify(record)).join(',\n')}\n]\n`)
    const report = await runRlValidate({ ...options, canonical: moved })
    expect(report.valid).toBe(false)
    expect(report.canonical_errors?.join('\n')).toMatch(/is in split train of the canonical records/)
  })

  it('after a failed audit of split records, quarantine takes the split back and a plain split runs again', async () => {
    // A second copy of a table labelled at another level: one prompt, two targets.
    const directory = join(work, 'conflict')
    cpSync(join(canonicalDir, dataset), join(directory, dataset), { recursive: true })
    const path = join(directory, dataset, 'all.json')
    const records = readLines(path)
    const copy = records.find((record) => record.metadata.database_name.startsWith('ods_') && record.split)
    copy.data_level = copy.data_level === 'L1' ? 'L2' : 'L1'
    writeFileSync(path, `[\n${records.map((record) => JSON.stringify(record)).join(',\n')}\n]\n`)
    const auditOf = (report: string) =>
      runPromptAudit({
        canonical: [path],
        classificationStandard: [files.classification],
        gradingStandard: [files.grading],
        dataset,
        split: 'all',
        levelField: 'data_level',
        report: join(work, report),
      })
    expect((await auditOf('conflict-before.json')).passed).toBe(false)
    const quarantined = await runQuarantineConflicts({ canonicalDir: directory, dataset })
    expect(quarantined).toMatchObject({ unsplit: true })
    expect(quarantined.quarantined_records).toBeGreaterThanOrEqual(2)
    await runCanonicalSplit({ canonicalDir: directory, dataset, splitType: 'random', seed: 42 })
    expect((await auditOf('conflict-after.json')).passed).toBe(true)
  })
})

describe('CSV input for preprocess', () => {
  it('parses quotes, doubled quotes, commas and line breaks in fields, CRLF and a BOM', () => {
    expect(parseCsv('\ufeffa,b\r\n"x, y","say ""hi"""\n"two\nlines",\n', 't.csv')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['two\nlines', ''],
    ])
    expect(() => parseCsv('a,"open\n', 't.csv')).toThrow(/never closed/)
  })

  it('the workbook saved as CSV gives the same records, ids and labels', async () => {
    const rows: string[][] = []
    for await (const row of readXlsxRows({ path: files.xlsx, sheets: ['字段清单'] }).rows) rows.push(row.cells)
    const quote = (cell: string) => (/[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)
    const csv = join(work, `${dataset}.csv`)
    writeFileSync(csv, `\ufeff${rows.map((cells) => cells.map(quote).join(',')).join('\r\n')}\r\n`)
    await runPreprocess({ input: csv, mapping: files.mapping, dataset, output: join(work, 'processed-csv.json') })
    const strip = (records: Record<string, unknown>[]) => records.map(({ provenance: _provenance, ...rest }) => rest)
    const fromCsv = JSON.parse(readFileSync(join(work, 'processed-csv.json'), 'utf8'))
    const fromXlsx = JSON.parse(readFileSync(join(work, 'processed.json'), 'utf8'))
    expect(strip(fromCsv)).toEqual(strip(fromXlsx))
    expect(fromCsv[0].provenance).toMatchObject({ source_file: `${dataset}.csv`, sheet: 'csv', row: 2 })
  })
})
