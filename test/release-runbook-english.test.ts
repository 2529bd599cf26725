/**
 * Issue 33: an English-only data owner (test/fixtures/byod/english-fixture.ts: a 40-row catalogue with a
 * title row, `Category Level 1…3` and `Sensitivity Level` written four ways; standards headed `Level 1`,
 * `Code`, `Description`, `Examples`, `Suggested level`). `release init` proposes the files, `release
 * standards build` reads them, then the runbook's sections 1–5 run verbatim with the default seed — with
 * no hand edit: nothing is written between the commands but what they write themselves.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { type ByodFixture, englishDataset as dataset, writeEnglishFixture } from './fixtures/byod/english-fixture.js'
import { temporaryDirectory, treeHashes } from './support/release-fixture.js'
import { type RunbookResult, runRunbook } from './support/run-runbook.js'
import { runbookVariables } from './support/runbook-variables.js'

const root = temporaryDirectory('english-runbook')
const work = join(root, 'work')
const run = join(root, 'run')
const variables = runbookVariables({ dataset, inputs: work, run })
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'))
const results: RunbookResult[] = []
let fixture: ByodFixture
let proposed: Record<string, string>

beforeAll(async () => {
  fixture = writeEnglishFixture(work)
  const init = ['release', 'init', '--dataset', dataset, '--catalogue', fixture.catalogue]
  init.push('--classification', fixture.classification, '--grading', fixture.grading, '--out-dir', work)
  const standards = ['release', 'standards', 'build', '--dataset', dataset, '--classification', fixture.classification]
  standards.push('--grading', fixture.grading, '--mapping', join(work, `assets/mappings/${dataset}.standards-mapping.json`))
  standards.push('--out-dir', work)
  const { runCliInProcess } = await import('./support/run-cli-in-process.js')
  results.push({ command: 'release init', result: await runCliInProcess(init) })
  proposed = treeHashes(join(work, 'assets/mappings'))
  results.push(...(await runRunbook(variables, [standards])))
}, 240_000)

describe('an English-only catalogue and English standards: release init, then the runbook verbatim', () => {
  it('every command exits 0, with the default seed and no hand edit', () => {
    const failed = results.filter(({ result }) => result.status !== 0)
    expect(failed.map(({ command, result }) => `${command}: ${result.stderr}`)).toEqual([])
    expect(results.length).toBe(17)
    // The proposed files are exactly what the line read: nothing was edited on the way.
    expect(treeHashes(join(work, 'assets/mappings'))).toEqual(proposed)
  })

  it('init inferred the header row under the title, every column, the level style and the languages', () => {
    const report = json(join(work, `init/${dataset}.init-report.json`))
    expect(report.status).toBe('proposed')
    expect(report.problems).toEqual([])
    expect(report.inferred.catalogue).toMatchObject({ sheet: 'Fields', header_row: 2, unmapped: ['Owner', 'Notes'], rows: 40 })
    expect(json(join(work, `assets/mappings/${dataset}.mapping.json`))).toEqual({
      Database: 'database_name',
      'Table Name': 'table_name',
      'Table Description': 'table_description',
      'Field Name': 'field_name',
      'Field Description': 'field_description',
      'Data Type': 'field_type',
      'Category Level 1': 'level_1',
      'Category Level 2': 'level_2',
      'Category Level 3': 'level_3',
      'Sensitivity Level': 'data_level',
    })
    expect(report.inferred.levels).toMatchObject({ style: 'numbered', levels: ['L1', 'L2', 'L3', 'L4'] })
    expect(report.inferred.catalogue_levels).toMatchObject({
      spellings: ['numbered'],
      unreadable: [],
      needs_grading_config: false,
    })
    expect(report.inferred.catalogue_levels.read).toMatchObject({ 'Level 3': 'L3', L2: 'L2', '4': 'L4', '1.0': 'L1' })
    expect(report.inferred.languages).toEqual({ headers: ['en'], labels: ['en'], bilingual_headers: false })
    expect(report.confirm.map((item: { item: string }) => item.item)).toEqual([
      'catalogue columns',
      'standards columns',
      'levels',
      'category ids',
      'label depth',
      'formal dataset',
    ])
    expect(json(join(work, 'config/datasets.json')).datasets[dataset]).toEqual({
      leaf_level: 'level_3',
      id_strategy: 'path',
      path_fields: ['level_1', 'level_2', 'level_3'],
      placeholder_labels: [],
    })
  })

  it('the English standards keep every description, example and suggested level, and say passed only then', () => {
    const alignment = json(join(work, 'standards', `${dataset}.alignment.json`))
    expect(alignment).toMatchObject({ status: 'passed', leaves: 15, leaves_without_description: [], unused_columns: [] })
    expect(alignment.columns.classification).toEqual({
      levels: ['Level 1', 'Level 2', 'Level 3'],
      code: 'Code',
      description: 'Description',
      examples: 'Examples',
      suggested_level: 'Suggested level',
    })
    const corpus = json(variables.CORPUS).categories as { description: string; examples: string[] }[]
    expect(corpus.every((category) => category.description !== '' && category.examples.length > 0)).toBe(true)
    const entries = json(join(work, 'standards', `${dataset}.classification.json`)).entries as { standard_data_level: string }[]
    expect(entries.every((entry) => /^L[1-4]$/.test(entry.standard_data_level))).toBe(true)
  })

  it('the split with seed 42 trains on every category; the one-record categories are named', () => {
    const split = json(join(run, 'canonical', dataset, 'split_report.json'))
    expect(split.seed).toBe(42)
    expect(split.train_coverage.missing_categories).toEqual([])
    // The seeded deal put the one Card Payments record in val: it moved to train, a train record took its place.
    expect(
      split.train_coverage.moves.map((move: { reason: string; from: string; to: string }) => [move.reason, move.from, move.to]),
    ).toEqual([
      [`category:${dataset}:Commerce.Payments.CardPayments`, 'val', 'train'],
      ['swap', 'train', 'val'],
    ])
    expect(split.sizes).toEqual({ train: 32, val: 4, test: 4 })
    const printed = results.find(({ command }) => command === 'release canonical split')?.result.stderr
    expect(printed).toContain(`note[train_coverage] ${dataset}: 1 record(s) moved into train`)
    expect(printed).toContain(`note[too_small_for_val_test] ${dataset}: 7 categories have fewer records than splits`)
    expect(split.too_small_for_val_test.filter((entry: { records: number }) => entry.records === 1).length).toBe(5)
    const sft = json(join(run, 'releases/sft-legacy/source', dataset, 'export_report.json'))
    expect(sft.label_gap_gate.status).toBe('passed')
    expect(['train', 'val', 'test'].reduce((sum, name) => sum + sft.splits[name].records, 0)).toBe(fixture.rows)
  })
})
