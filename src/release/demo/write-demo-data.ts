/**
 * @module release/demo: `releaseops release demo-data`: the synthetic steel-maker dataset as a real .xlsx
 * with Chinese headers, plus every asset the pipeline needs, laid out like the runbook's directories.
 * Deterministic: the same rows and seed give byte-identical files.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import {
  demoClassificationStandardJson,
  demoCorpusJson,
  demoDatasetsConfigJson,
  demoGradingJson,
  demoMappingJson,
  demoRegistryJson,
  demoTaskConfigJson,
} from '../../envs/grading/demo/demo-assets.js'
import { demoDatasetName } from '../../envs/grading/demo/demo-taxonomy.js'
import { type DemoRowKind, generateDemoSheet } from '../../envs/grading/demo/generate-demo-rows.js'
import { publishDirectory } from '../../io/publish-directory.js'
import { sha256File } from '../../io/sha256.js'
import { writeXlsx } from '../xlsx/write-xlsx.js'
import { classificationWorkbook, gradingWorkbook } from './demo-standard-workbooks.js'

const defaultDemoRows = 2000
const defaultDemoSeed = 20261129
const demoSheetName = '数据资产目录'

/** Where each demo file lies, relative to the output directory. */
export const demoLayout = {
  xlsx: `raw/${demoDatasetName}.xlsx`,
  mapping: `assets/mappings/${demoDatasetName}.mapping.json`,
  registry: `assets/registries/${demoDatasetName}.registry.json`,
  corpus: `assets/corpora/${demoDatasetName}.corpus.json`,
  datasets: 'config/datasets.json',
  task: `config/${demoDatasetName}.task.json`,
  classification: `standards/${demoDatasetName}.classification.json`,
  grading: `standards/${demoDatasetName}.grading.json`,
  gradingManifest: 'standards/grading-manifest.json',
  classificationWorkbook: `standards/${demoDatasetName}.classification.xlsx`,
  gradingWorkbook: `standards/${demoDatasetName}.grading.xlsx`,
} as const

export interface DemoDataSummary {
  format: 'demo-data-v1'
  dataset: string
  rows: number
  seed: number
  row_kinds: Record<DemoRowKind, number>
  files: Record<keyof typeof demoLayout, { path: string; sha256: string }>
}

function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`)
}

export async function runDemoData(options: { out: string; rows?: number; seed?: number }): Promise<DemoDataSummary> {
  const rows = options.rows ?? defaultDemoRows
  const seed = options.seed ?? defaultDemoSeed
  const sheet = generateDemoSheet({ rows, seed })
  let summary: DemoDataSummary | undefined
  await publishDirectory({
    target: options.out,
    build(staging) {
      const at = (relative: string) => join(staging, relative)
      mkdirSync(dirname(at(demoLayout.xlsx)), { recursive: true })
      writeXlsx(at(demoLayout.xlsx), [{ name: demoSheetName, rows: [sheet.header, ...sheet.rows.map((row) => row.cells)] }])
      writeJson(at(demoLayout.mapping), demoMappingJson())
      writeJson(at(demoLayout.registry), demoRegistryJson())
      writeJson(at(demoLayout.corpus), demoCorpusJson())
      writeJson(at(demoLayout.datasets), demoDatasetsConfigJson())
      writeJson(at(demoLayout.task), demoTaskConfigJson())
      writeJson(at(demoLayout.classification), demoClassificationStandardJson())
      writeJson(at(demoLayout.grading), demoGradingJson())
      const standard = demoClassificationStandardJson() as unknown as { entries: Parameters<typeof classificationWorkbook>[0] }
      writeXlsx(at(demoLayout.classificationWorkbook), [classificationWorkbook(standard.entries)])
      writeXlsx(at(demoLayout.gradingWorkbook), [
        gradingWorkbook(demoGradingJson() as unknown as Parameters<typeof gradingWorkbook>[0]),
      ])
      writeJson(at(demoLayout.gradingManifest), {
        datasets: { [demoDatasetName]: { path: basename(demoLayout.grading), sha256: sha256File(at(demoLayout.grading)) } },
      })
      const files = Object.fromEntries(
        Object.entries(demoLayout).map(([key, relative]) => [key, { path: relative, sha256: sha256File(at(relative)) }]),
      ) as DemoDataSummary['files']
      summary = { format: 'demo-data-v1', dataset: demoDatasetName, rows, seed, row_kinds: sheet.counts, files }
      writeJson(join(staging, 'demo_manifest.json'), summary)
    },
  })
  return summary as DemoDataSummary
}
