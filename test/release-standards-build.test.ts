/**
 * `release standards build`: the standards' own workbooks (merged ancestor cells) → registry, corpus,
 * classification and grading standard JSON with an alignment report. An openpyxl workbook gives exactly
 * the hospital fixture's committed assets; the demo generator's workbooks give the demo's ids and paths;
 * a misaligned standard stops with every problem listed and only the report written.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runDemoData } from '../src/release/demo/write-demo-data.js'
import { runStandardsBuild, standardsLayout } from '../src/release/standards/run-standards-build.js'
import { writeXlsx } from '../src/release/xlsx/write-xlsx.js'
import { temporaryDirectory, thrown } from './support/release-fixture.js'
import { runCliInProcess } from './support/run-cli-in-process.js'

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'))
const hospital = (relative: string) => resolve(import.meta.dirname, 'fixtures/hospital', relative)

/** `release standards build` of the hospital fixture's workbooks into `out`. */
const buildHospital = (out: string) =>
  runCliInProcess([
    'release',
    'standards',
    'build',
    '--dataset',
    'hospital_demo',
    '--classification',
    hospital('standards/hospital_demo.classification.xlsx'),
    '--grading',
    hospital('standards/hospital_demo.grading.xlsx'),
    '--out-dir',
    out,
  ])

describe('release standards build', () => {
  it('the hospital standard workbooks (openpyxl, merged cells) give the fixture assets exactly', async () => {
    const out = temporaryDirectory('standards-hospital')
    const result = await buildHospital(out)
    expect(result.status, result.stderr).toBe(0)
    expect(result.stderr).toContain('warning[standards] hospital_demo: 1 leaf names used more than once')
    const layout = standardsLayout('hospital_demo')
    for (const key of ['registry', 'corpus', 'grading'] as const)
      expect(json(join(out, layout[key]))).toEqual(json(hospital(layout[key])))
    const entries = json(join(out, layout.classification)).entries
    expect(entries.map((entry: { category_id: string; standard_data_level: string }) => entry.standard_data_level)).toEqual(
      json(hospital(layout.classification)).entries.map((entry: { standard_data_level: string }) => entry.standard_data_level),
    )
    expect(json(join(out, layout.alignment))).toMatchObject({
      status: 'passed',
      leaves: 28,
      merged_ranges: 17,
      duplicate_names: [
        {
          name: '基本信息',
          category_ids: ['hospital_demo:患者数据域.患者身份.基本信息', 'hospital_demo:人员数据域.员工档案.基本信息'],
        },
      ],
      leaves_without_description: [],
      unparsed_codes: [],
    })
    const manifest = json(join(out, layout.gradingManifest))
    expect(manifest.datasets.hospital_demo.path).toBe('hospital_demo.grading.json')
  })

  it('the demo generator writes standard workbooks that build the demo registry (code ids)', async () => {
    const demo = join(temporaryDirectory('standards-demo'), 'demo')
    await runDemoData({ out: demo, rows: 50 })
    const out = join(demo, 'built')
    const report = await runStandardsBuild({
      dataset: 'steel_demo',
      idStrategy: 'code',
      classification: join(demo, 'standards/steel_demo.classification.xlsx'),
      grading: join(demo, 'standards/steel_demo.grading.xlsx'),
      outDir: out,
    })
    expect(report.merged_ranges).toBeGreaterThan(0)
    const shape = (categories: { category_id: string; name: string; path: string[]; code: string }[]) =>
      categories.map(({ category_id, name, path, code }) => ({ category_id, name, path, code }))
    const layout = standardsLayout('steel_demo')
    expect(shape(json(join(out, layout.registry)).categories)).toEqual(shape(json(join(demo, layout.registry)).categories))
    expect(json(join(out, layout.grading)).levels).toEqual(json(join(demo, layout.grading)).levels)
  })

  it('a misaligned standard stops with its problems; only the alignment report is written', async () => {
    const work = temporaryDirectory('standards-bad')
    writeXlsx(join(work, 'classification.xlsx'), [
      {
        name: '标准',
        rows: [
          ['一级分类', '二级分类', '编码', '说明', '建议级别'],
          ['经营', '合同', 'B1-1', '合同文本', '二级'],
          [null, '发票', 'b-1?', '', '五级'],
          [null, '报表', null, '月度报表', '一级'],
        ],
        merges: ['A2:A4'],
      },
    ])
    writeXlsx(join(work, 'grading.xlsx'), [
      {
        name: '分级',
        rows: [
          ['级别', '说明'],
          ['L1', '公开'],
          ['L2', '内部'],
        ],
      },
    ])
    const out = join(work, 'out')
    const error = await thrown(() =>
      runStandardsBuild({
        dataset: 'plant',
        idStrategy: 'code',
        classification: join(work, 'classification.xlsx'),
        grading: join(work, 'grading.xlsx'),
        outDir: out,
      }),
    )
    expect(error.code).toBe('standards_misaligned')
    const report = json(join(out, standardsLayout('plant').alignment))
    expect(report).toMatchObject({
      status: 'failed',
      merged_ranges: 1,
      leaves_without_description: [{ row: 3, name: '发票' }],
      unparsed_codes: [{ row: 3, name: '发票', code: 'b-1?' }],
      unparsed_levels: [],
    })
    expect(report.errors).toEqual(
      expect.arrayContaining([
        'row 4: leaf "报表" has no code',
        'row 3: code "b-1?" of "发票" does not parse',
        'leaf "发票" suggests level L5, which the grading standard lacks',
      ]),
    )
    expect(existsSync(join(out, standardsLayout('plant').registry))).toBe(false)
  })

  it("--out-dir assets/ (the layout's own folder) is refused before anything is written, naming the parent", async () => {
    const root = temporaryDirectory('standards-out-dir')
    for (const folder of ['assets', 'standards/']) {
      const result = await buildHospital(join(root, folder))
      expect(result.status).toBe(2)
      expect(result.stderr).toMatch(/^error\[out_dir_inside_layout\].*pass its parent/)
    }
    expect(existsSync(join(root, 'assets'))).toBe(false)
    expect(existsSync(join(root, 'standards'))).toBe(false)
  })
})
