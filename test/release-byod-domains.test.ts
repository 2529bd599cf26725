/**
 * Issue 33, "what breaks" items 7, 9 and 10, through the CLI on the data owners' own files:
 * - a five-level scheme whose levels are names (`Public` … `Secret`) in the catalogue, the suggested
 *   levels and the grading sheet: init proposes the level map, the build writes it into the grading
 *   standard, and preprocess reads the catalogue with it (`--grading-config`) into an RL release;
 * - a power-grid utility: six-digit text codes (`010101`) as category ids, bilingual `字段名\nField Name`
 *   headers, two `备注\nRemarks` columns nobody maps, levels written `Ⅲ级`, `5级`, `3.0`, `三`, `S3`, `三级（敏感）`.
 * Refusals (item 7, init's problems): `release-byod-refusals.test.ts`.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { namedDataset, writeEnglishFixture } from './fixtures/byod/english-fixture.js'
import { gridDataset, gridLeaves, writeGridFixture } from './fixtures/byod/power-grid-fixture.js'
import { temporaryDirectory } from './support/release-fixture.js'
import type { CliResult } from './support/run-cli.js'
import { runCliInProcess } from './support/run-cli-in-process.js'

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'))
const root = temporaryDirectory('byod-domains')

/** `--name value` pairs, in order. */
const flags = (pairs: Record<string, string>) => Object.entries(pairs).flatMap(([name, value]) => [`--${name}`, value])

/** init → standards build → preprocess (with the grading standard) → canonical build → split → rl export. */
async function line(options: {
  dataset: string
  dir: string
  files: { catalogue: string; classification: string; grading: string }
  code?: boolean
}) {
  const { dataset, dir, files } = options
  const ids = options.code ? ['--id-strategy', 'code'] : []
  const run = join(dir, 'run')
  const at = (relative: string) => join(dir, relative)
  const standards = { dataset, classification: files.classification, grading: files.grading }
  const task = {
    registry: at(`assets/registries/${dataset}.registry.json`),
    corpus: at(`assets/corpora/${dataset}.corpus.json`),
    'task-config': at(`config/${dataset}.task.json`),
    'grading-config': at(`standards/${dataset}.grading.json`),
  }
  const steps: [string, string[]][] = [
    ['init', ['release', 'init', ...flags({ ...standards, catalogue: files.catalogue, 'out-dir': dir }), ...ids]],
    [
      'standards',
      [
        'release',
        'standards',
        'build',
        ...flags({ ...standards, mapping: at(`assets/mappings/${dataset}.standards-mapping.json`), 'out-dir': dir }),
        ...ids,
      ],
    ],
    [
      'preprocess',
      [
        'release',
        'preprocess',
        ...flags({ input: files.catalogue, mapping: at(`assets/mappings/${dataset}.mapping.json`), dataset }),
        ...flags({ output: join(run, `processed/${dataset}/all.json`), 'grading-config': task['grading-config'] }),
      ],
    ],
    [
      'canonical',
      [
        'release',
        'canonical',
        'build',
        ...flags({
          'processed-dir': join(run, 'processed'),
          'canonical-dir': join(run, 'canonical'),
          'config-file': at('config/datasets.json'),
        }),
        ...flags({ 'registry-dir': at('assets/registries'), 'corpus-dir': at('assets/corpora'), dataset }),
      ],
    ],
    ['split', ['release', 'canonical', 'split', ...flags({ 'canonical-dir': join(run, 'canonical'), dataset })]],
    [
      'rl',
      [
        'release',
        'rl',
        'export',
        ...flags({ canonical: join(run, `canonical/${dataset}/all.json`), 'output-dir': join(run, 'rl'), ...task }),
      ],
    ],
  ]
  const results: Record<string, CliResult> = {}
  for (const [name, args] of steps) {
    results[name] = await runCliInProcess(args)
    if (results[name].status !== 0) break
  }
  return results
}

describe('a five-level scheme of named levels (item 9)', () => {
  const dir = join(root, 'named')
  let results: Record<string, CliResult>
  beforeAll(async () => {
    const files = writeEnglishFixture(dir, { named: true })
    results = await line({ dataset: namedDataset, dir, files })
  }, 180_000)

  it('goes from the workbooks to an RL release, every command exit 0', () => {
    expect(Object.entries(results).map(([name, result]) => [name, result.status, result.status ? result.stderr : ''])).toEqual(
      ['init', 'standards', 'preprocess', 'canonical', 'split', 'rl'].map((name) => [name, 0, '']),
    )
  })

  it('init proposes the map in the sheet order, lowest first, and asks to confirm it', () => {
    const report = json(join(dir, `init/${namedDataset}.init-report.json`))
    const levelMap = { Public: 'L1', Internal: 'L2', Confidential: 'L3', Restricted: 'L4', Secret: 'L5' }
    expect(report.inferred.levels).toMatchObject({ style: 'named', order: 'sheet order, lowest first', level_map: levelMap })
    expect(report.inferred.catalogue_levels.needs_grading_config).toBe(true)
    expect(report.confirm.find((item: { item: string }) => item.item === 'levels').inferred).toContain('Public → L1')
    expect(report.next[1]).toContain('--grading-config')
    expect(json(join(dir, `standards/${namedDataset}.grading.json`))).toMatchObject({
      levels: ['L1', 'L2', 'L3', 'L4', 'L5'],
      level_map: levelMap,
    })
  })

  it('the same map reads the catalogue and the suggested levels: every case, five levels', () => {
    const records = json(join(dir, `run/processed/${namedDataset}/all.json`)) as { data_level: string }[]
    expect(new Set(records.map((record) => record.data_level))).toEqual(new Set(['L1', 'L2', 'L3', 'L4', 'L5']))
    const entries = json(join(dir, `standards/${namedDataset}.classification.json`)).entries as {
      name: string
      standard_data_level: string
    }[]
    expect(entries.find((entry) => entry.name === 'Payroll')?.standard_data_level).toBe('L5')
    const rl = json(join(dir, 'run/rl/export_report.json'))
    expect(rl.grading.levels).toEqual(['L1', 'L2', 'L3', 'L4', 'L5'])
  })

  it('without the grading standard, preprocess refuses a named level and says how to give it', async () => {
    const result = await runCliInProcess([
      'release',
      'preprocess',
      '--input',
      join(dir, `raw/${namedDataset}.xlsx`),
      '--mapping',
      join(dir, `assets/mappings/${namedDataset}.mapping.json`),
      '--dataset',
      namedDataset,
      '--out',
      join(dir, 'no-levels.json'),
    ])
    expect(result.status).toBe(2)
    expect(result.stderr).toMatch(/^error\[unknown_level\].*row 3:Sensitivity Level.*"Confidential".*--grading-config/m)
  })
})

describe('a power-grid utility: six-digit codes, bilingual headers, levels as its departments write them (items 9, 10)', () => {
  const dir = join(root, 'grid')
  let results: Record<string, CliResult>
  beforeAll(async () => {
    const files = writeGridFixture(dir)
    results = await line({ dataset: gridDataset, dir, files, code: true })
  }, 180_000)

  it('goes through with --id-strategy code: every command exit 0, 41 leaves keyed by their codes', () => {
    expect(Object.entries(results).map(([name, result]) => [name, result.status, result.status ? result.stderr : ''])).toEqual(
      ['init', 'standards', 'preprocess', 'canonical', 'split', 'rl'].map((name) => [name, 0, '']),
    )
    const registry = json(join(dir, `assets/registries/${gridDataset}.registry.json`)).categories as { category_id: string }[]
    expect(registry.map((category) => category.category_id)).toEqual(gridLeaves().map((leaf) => leaf.code))
    expect(registry[0]?.category_id).toBe('010101')
    const alignment = json(join(dir, `standards/${gridDataset}.alignment.json`))
    expect(alignment).toMatchObject({ status: 'passed', unparsed_codes: [], level_map: { 公开: 'L1', 核心: 'L5' } })
  })

  it('every spelling of a level reads as its level; the repeated unmapped column does not stop preprocess', () => {
    const processed = json(join(dir, `run/processed/${gridDataset}/all.json`)) as {
      data_level: string
      classification: { level_3: string }
    }[]
    const levelOf = new Map(gridLeaves().map((leaf) => [leaf.path[2], `L${leaf.level}`]))
    expect(processed.length).toBe(123)
    expect(processed.filter((record) => record.data_level !== levelOf.get(record.classification.level_3))).toEqual([])
    const report = JSON.parse(results.preprocess?.stdout.trim().split('\n').at(-1) ?? '{}')
    expect(report.ignored_columns).toEqual(['备注 Remarks'])
    const canonical = readFileSync(join(dir, `run/canonical/${gridDataset}/all.json`), 'utf8')
    expect(canonical).toContain('"category_id":"010101"')
  })

  it('init reports the code style and the bilingual headers', () => {
    const report = json(join(dir, `init/${gridDataset}.init-report.json`))
    expect(report.inferred.codes).toMatchObject({ style: 'digits', digit_lengths: [6], leading_zeros: true, usable_as_ids: true })
    expect(report.inferred.languages).toEqual({ headers: ['en', 'zh'], labels: ['zh'], bilingual_headers: true })
    expect(report.inferred.levels).toMatchObject({ style: 'numbered', order: 'name column' })
  })
})
