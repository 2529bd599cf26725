/**
 * Issue 24: a catalogue as a data owner sends it (test/fixtures/retail/write-retail-fixture.ts: title and
 * group-header rows, an instructions tab, three data tabs, merged 表名 cells, subtotal and blank rows,
 * seven ways of writing a level, trailing codes of three kinds, labels that are exactly a leaf, leaf-only
 * labels, an inner space in a leaf, a formula and a date cell) and standards workbooks with title rows and
 * footnotes. `release standards build`, then the runbook's sections 1–5 verbatim, with no hand edit.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { retailDataset as dataset, type RetailFixture, writeRetailFixture } from './fixtures/retail/write-retail-fixture.js'
import { temporaryDirectory } from './support/release-fixture.js'
import { type RunbookResult, runRunbook } from './support/run-runbook.js'
import { runbookVariables } from './support/runbook-variables.js'

const root = temporaryDirectory('retail-runbook')
const fixtureDir = join(root, 'fixture')
const run = join(root, 'run')
const variables = runbookVariables({ dataset, inputs: fixtureDir, run })
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'))
const results: RunbookResult[] = []
let fixture: RetailFixture

beforeAll(async () => {
  fixture = await writeRetailFixture(fixtureDir)
  // The new user's first step: the JSON standards from the standards body's workbooks.
  const standards = ['release', 'standards', 'build', '--dataset', dataset, '--classification', fixture.classificationWorkbook]
  standards.push('--grading', fixture.gradingWorkbook, '--out-dir', fixtureDir)
  results.push(...(await runRunbook(variables, [standards])))
}, 180_000)

describe('the runbook, verbatim, on a catalogue as sent (retail domain)', () => {
  it('runs the standards build and every command of sections 1–5 with exit code 0', () => {
    const failed = results.filter(({ result }) => result.status !== 0)
    expect(failed.map(({ command, result }) => `${command}: ${result.stderr}`)).toEqual([])
    expect(results.length).toBe(16)
  })

  it('the standards: header rows under the titles, footnotes are notes, never categories', () => {
    const alignment = json(join(fixtureDir, 'standards', `${dataset}.alignment.json`))
    expect(alignment).toMatchObject({
      status: 'passed',
      leaves: 12,
      header_rows: { classification: 2, grading: 2 },
      code_column: '三级编码',
    })
    expect(alignment.notes.map((note: { text: string }) => note.text)).toContain(
      '注：1. 本标准由数据安全委员会发布，自发布之日起施行。',
    )
    const names = json(variables.REGISTRY).categories.map((category: { name: string }) => category.name)
    expect(names.filter((name: string) => /^注|本标准/.test(name))).toEqual([])
    expect(json(variables.GRADING_CONFIG).levels).toEqual(['L1', 'L2', 'L3', 'L4'])
  })

  it('preprocess finds the tables: header row 3 of each data tab, the instructions tab skipped, subtotals counted', () => {
    const report = JSON.parse(
      results
        .find(({ command }) => command.startsWith('release preprocess'))
        ?.result.stdout.trim()
        .split('\n')
        .at(-1) ?? '{}',
    )
    expect(report.sheets.map((sheet: { sheet: string; header_row: number }) => [sheet.sheet, sheet.header_row])).toEqual([
      ['电商', 3],
      ['客户', 3],
      ['物流与金融', 3],
    ])
    expect(report.skipped_sheets.map((sheet: { sheet: string }) => sheet.sheet)).toEqual(['填写说明'])
    expect([report.records, report.subtotal_rows]).toEqual([fixture.fields, 9])
    const records = json(join(run, 'processed', dataset, 'all.json')) as {
      metadata: { table_name: string; field_description: string; sample_values: string }
      data_level: string
    }[]
    // Merged 表名 cells fill every row of their table; the formula's cached value is the text.
    expect(records.every((record) => record.metadata.table_name !== '')).toBe(true)
    expect(records.filter((record) => record.metadata.field_description === '编号（主键）').length).toBe(9)
    // The mapped 样例值 column is free metadata; its date cells read as ISO dates, never serials.
    expect(records.filter((record) => record.metadata.sample_values === '2024-03-01').length).toBe(9)
    expect(new Set(records.map((record) => record.data_level))).toEqual(new Set(['', 'L2', 'L3', 'L4']))
  })

  it('every labelled row is in the release or in resolution_report.json with a reason and its cell', () => {
    const canonical = json(variables.CANONICAL) as {
      split: string | null
      resolution_status: string
      provenance: { source_file: string; sheet: string; row: number }
    }[]
    const resolution = json(join(run, 'canonical', dataset, 'resolution_report.json'))
    const cellOf = (record: (typeof canonical)[number]) =>
      `${record.provenance.source_file}:${record.provenance.sheet}:row ${record.provenance.row}`
    const split = new Set(canonical.filter((record) => record.split !== null).map(cellOf))
    const reported = new Map<string, string>(
      resolution.unresolved.records.map((record: { cell: string; reason: string }) => [record.cell, record.reason]),
    )
    const missing = fixture.labelledCells.filter((cell) => !split.has(cell) && !reported.get(cell))
    expect(missing).toEqual([])
    expect(resolution.labels.lost).toBe(0)
    // Labels exactly a leaf resolve as written; codes of three kinds strip; fallbacks are named.
    expect(resolution.resolution_rules).toMatchObject({ code_stripped: expect.any(Number), leaf_only: expect.any(Number) })
    expect(resolution.resolution_rules.leaf_only).toBeGreaterThan(0)
    expect(resolution.resolution_rules.whitespace_insensitive).toBeGreaterThan(0)
    const sft = json(join(run, 'releases/sft-legacy/source', dataset, 'export_report.json'))
    const total = ['train', 'val', 'test'].reduce((sum, name) => sum + sft.splits[name].records, 0)
    expect(total).toBe(split.size)
  })

  it('no release holds a corrupted character, a stringified object or a date serial', () => {
    const text = readFileSync(variables.CANONICAL, 'utf8')
    expect(text).not.toContain('\ufffd')
    expect(text).not.toContain('[object Object]')
    expect(text).not.toContain('45352')
  })
})
