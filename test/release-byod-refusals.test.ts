/**
 * Issue 33: what a new data owner is told when the line cannot go on. English standards whose headers are
 * not found (item 7): refused with what a header row must contain and the closest row; a used column
 * missing is never `passed`; a lookalike column is named; a standards mapping names the column. And
 * `release init` on a catalogue the line would refuse: exit 1, each problem named, no half-written proposal.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { writeXlsx } from '../src/release/xlsx/write-xlsx.js'
import { writeEnglishFixture } from './fixtures/byod/english-fixture.js'
import { temporaryDirectory } from './support/release-fixture.js'
import { runCliInProcess } from './support/run-cli-in-process.js'

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'))
const root = temporaryDirectory('byod-refusals')
/** `--name value` pairs, in order. */
const flags = (pairs: Record<string, string>) => Object.entries(pairs).flatMap(([name, value]) => [`--${name}`, value])

describe('English standards whose headers are not found (item 7)', () => {
  const dir = join(root, 'headers')
  const grading = join(dir, 'grading.xlsx')
  const build = (classification: string, out: string, more: string[] = []) =>
    runCliInProcess(
      ['release', 'standards', 'build', '--dataset', 'plant', '--classification', classification, ...more].concat([
        '--grading',
        grading,
        '--out-dir',
        out,
      ]),
    )
  beforeAll(() => {
    mkdirSync(dir, { recursive: true })
    writeXlsx(grading, [
      {
        name: 'Grading',
        rows: [
          ['Level', 'Description'],
          ['Level 1', 'Public'],
          ['Level 2', 'Internal'],
        ],
      },
    ])
  })

  it('a header row it cannot find is refused with what a header row must contain and the closest row', async () => {
    const file = join(dir, 'unknown.xlsx')
    writeXlsx(file, [
      {
        name: 'Std',
        rows: [
          ['Domain', 'Group', 'Category', 'Code', 'Description'],
          ['A', 'B', 'C', 'X1', 'text'],
        ],
      },
    ])
    const result = await build(file, join(dir, 'out-unknown'))
    expect(result.status).toBe(2)
    expect(result.stderr).toMatch(/^error\[missing_header\]/)
    expect(result.stderr).toContain(
      'a classification header row names its level columns (一级分类, 二级分类, … or Level 1, Level 2, …',
    )
    expect(result.stderr).toContain('The closest, row 1, holds: Domain, Group, Category, Code, Description.')
    expect(result.stderr).toContain('--mapping')
  })

  it('a used column that is not found is never passed; a lookalike is named; a mapping names it and the build passes', async () => {
    const file = join(dir, 'lookalike.xlsx')
    const rows = [
      ['Level 1', 'Level 2', 'Code', 'Text', 'Description (internal)', 'Examples', 'Suggested level'],
      ['Plant', 'Furnace', 'P-1', 'Furnace logs', 'do not publish', 'temperature', 'Level 2'],
    ]
    writeXlsx(file, [{ name: 'Std', rows }])
    const out = join(dir, 'out-lookalike')
    const result = await build(file, out)
    // "Description (internal)" matches by a part: it is used, not dropped; no description is lost.
    expect(result.status, result.stderr).toBe(0)
    expect(json(join(out, 'standards/plant.alignment.json')).columns.classification.description).toBe('Description (internal)')
    const missing = join(dir, 'missing.xlsx')
    writeXlsx(missing, [{ name: 'Std', rows: rows.map((row) => [row[0], row[1], row[2], row[3], row[5], row[6]]) }])
    const refused = await build(missing, join(dir, 'out-missing'))
    expect(refused.status).toBe(2)
    expect(refused.stderr).toMatch(
      /error\[standards_misaligned\].*no description column in the classification sheet: name it in --mapping/,
    )
    const report = json(join(dir, 'out-missing/standards/plant.alignment.json'))
    expect(report.status).toBe('failed')
    expect(report.unused_columns).toEqual([])
    const mapping = join(dir, 'mapping.json')
    writeXlsx(join(dir, 'unused.xlsx'), [
      {
        name: 'Std',
        rows: [
          [...(rows[0] as string[]), 'Level notes'],
          [...(rows[1] as string[]), 'x'],
        ],
      },
    ])
    const unused = await build(join(dir, 'unused.xlsx'), join(dir, 'out-unused'))
    expect(unused.stderr).toContain('note[unused_column] classification column "Level notes" looks like level but is not used')
    writeFileSync(mapping, JSON.stringify({ classification: { description: 'Text' } }))
    const mapped = await build(missing, join(dir, 'out-mapped'), ['--mapping', mapping])
    expect(mapped.status, mapped.stderr).toBe(0)
    expect(json(join(dir, 'out-mapped/assets/corpora/plant.corpus.json')).categories[0].description).toBe('Furnace logs')
  })
})

describe('release init says what the line would refuse', () => {
  it('a level no standard names and a label no leaf has: exit 1, status needs_fixes, each problem named', async () => {
    const dir = join(root, 'problems')
    const files = writeEnglishFixture(join(dir, 'example'))
    const catalogue = join(dir, 'catalogue.xlsx')
    const header = [
      'Table',
      'Field Name',
      'Category Level 1',
      'Category Level 2',
      'Category Level 3',
      'Sensitivity',
      'Notes',
      'Notes',
    ]
    writeXlsx(catalogue, [
      {
        name: 'Fields',
        rows: [
          header,
          ['payroll', 'iban', 'People', 'Employees', 'Payrol', 'Top Secret', '', ''],
          ['payroll', 'bonus', 'People', 'Employees', 'TBD', 'L2', '', ''],
        ],
      },
    ])
    const result = await runCliInProcess([
      'release',
      'init',
      ...flags({ dataset: 'acme_fix', catalogue, classification: files.classification, grading: files.grading, 'out-dir': dir }),
    ])
    expect(result.status).toBe(1)
    const report = json(join(dir, 'init/acme_fix.init-report.json'))
    expect(report.status).toBe('needs_fixes')
    expect(report.problems.map((problem: { code: string }) => problem.code)).toEqual(['unknown_level', 'unknown_label'])
    expect(result.stderr).toMatch(/^problem\[unknown_label\] catalogue label "Payrol" \(1 row\(s\)\) names no leaf/m)
    expect(report.inferred.labels.placeholder_labels).toEqual(['TBD'])
    expect(report.inferred.catalogue.unmapped).toEqual(['Notes'])
    expect(json(join(dir, 'config/datasets.json')).datasets.acme_fix.placeholder_labels).toEqual(['TBD'])
    const again = await runCliInProcess([
      'release',
      'init',
      ...flags({ dataset: 'acme_fix', catalogue, classification: files.classification, grading: files.grading, 'out-dir': dir }),
    ])
    expect(again.status).toBe(2)
    expect(again.stderr).toMatch(/^error\[dataset_already_configured\].*--overwrite/m)
  })
})
