/**
 * @module release/init: `releaseops release init`: a data owner's catalogue and standards workbooks → a
 * proposed column mapping, standards mapping, `datasets.json` entry and task config, in the runbook's
 * layout under `--out-dir`, with `init/<dataset>.init-report.json`: what was inferred (header rows,
 * columns, level style, code style, languages), what to confirm, and what the line would refuse.
 */
import { existsSync } from 'node:fs'
import { basename, join } from 'node:path'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { writeJsonReport } from '../../io/atomic-file.js'
import { outputExistsError } from '../../io/publish-directory.js'
import { readJsonFile } from '../../io/read-json-file.js'
import { sha256File } from '../../io/sha256.js'
import type { StandardField } from '../contracts/column-mapping.js'
import { checkDatasetName } from '../contracts/dataset-name.js'
import { readStandardTable } from '../standards/read-standard-table.js'
import { classificationColumns, gradingColumns } from '../standards/standard-columns.js'
import { inferCodeStyle } from './infer-codes.js'
import { inferLabels } from './infer-labels.js'
import { inferCatalogueLevels, inferGradingLevels } from './infer-levels.js'
import { type ConfirmItem, type InitFindings, initProposal } from './init-proposal.js'
import { readCatalogueSample } from './read-catalogue-sample.js'

export interface RunReleaseInitOptions {
  dataset: string
  catalogue: string
  classification: string
  grading: string
  outDir: string
  idStrategy?: 'path' | 'code'
  overwrite?: boolean
}

export const initLayout = (dataset: string) => ({
  mapping: `assets/mappings/${dataset}.mapping.json`,
  standards: `assets/mappings/${dataset}.standards-mapping.json`,
  datasets: 'config/datasets.json',
  task: `config/${dataset}.task.json`,
  report: `init/${dataset}.init-report.json`,
})

export interface InitReport {
  format: 'release-init-report-v1'
  dataset: string
  status: 'proposed' | 'needs_fixes'
  inputs: Record<'catalogue' | 'classification' | 'grading', { file: string; sha256: string }>
  inferred: Omit<InitFindings, 'dataset' | 'idStrategy'>
  confirm: ConfirmItem[]
  problems: { code: string; message: string }[]
  written: string[]
  next: string[]
}

const scripts = (text: string) => [/\p{Script=Han}/u.test(text) ? 'zh' : '', /[A-Za-z]/.test(text) ? 'en' : ''].filter(Boolean)
const languagesOf = (texts: readonly string[]) => [...new Set(texts.flatMap(scripts))].sort()

async function findings(options: RunReleaseInitOptions, dataset: string): Promise<InitFindings> {
  const sample = await readCatalogueSample(options.catalogue)
  const classification = await readStandardTable({ path: options.classification, table: 'classification' })
  const grading = await readStandardTable({ path: options.grading, table: 'grading' })
  const idStrategy = options.idStrategy ?? 'path'
  const classChoice = classificationColumns({ headers: classification.headers, idStrategy })
  const gradeChoice = gradingColumns({ headers: grading.headers })
  const cell = (row: { cells: Readonly<Record<string, string>> }, column: string | null) =>
    column ? (row.cells[column] ?? '') : ''
  const levels = inferGradingLevels(
    grading.rows.map((row) => ({ level: cell(row, gradeChoice.columns.level), name: cell(row, gradeChoice.columns.name) })),
  )
  const leafColumn = classChoice.columns.levels.at(-1) ?? null
  const leafRows = classification.rows.filter((row) => cell(row, leafColumn).trim())
  const categoryFields = sample.proposal.mapping
    .map(([, field]) => field)
    .filter((field) => /^level_\d$/.test(field)) as StandardField[]
  const labelTexts = sample.rows.flatMap((row) => categoryFields.map((field) => row[field] ?? ''))
  return {
    dataset,
    idStrategy,
    catalogue: {
      sheet: sample.sheet,
      header_row: sample.headerRow,
      mapping: sample.proposal.mapping,
      unmapped: sample.proposal.unmapped,
      repeated: sample.proposal.repeated,
      rows: sample.rows.length,
    },
    standards: {
      classification_header_row: classification.headerRow,
      grading_header_row: grading.headerRow,
      columns: { classification: classChoice.columns, grading: gradeChoice.columns },
      unused: [
        ...classChoice.unused.map((entry) => ({ table: 'classification', ...entry })),
        ...gradeChoice.unused.map((entry) => ({ table: 'grading', ...entry })),
      ],
      errors: [...classChoice.errors, ...gradeChoice.errors],
      missing: [
        ...classChoice.missing.map((role) => `classification ${role}`),
        ...gradeChoice.missing.map((role) => `grading ${role}`),
      ],
      depth: classChoice.columns.levels.length,
    },
    levels,
    catalogue_levels: inferCatalogueLevels(
      sample.rows.map((row) => row.data_level ?? ''),
      levels,
    ),
    codes: inferCodeStyle(
      classChoice.columns.code,
      leafRows.map((row) => cell(row, classChoice.columns.code)),
    ),
    labels: inferLabels({
      categoryFields,
      rows: sample.rows,
      leaves: new Set(leafRows.map((row) => cell(row, leafColumn).trim())),
    }),
    languages: {
      headers: languagesOf([...sample.headerTexts, ...classification.headers, ...grading.headers]),
      labels: languagesOf(labelTexts),
      bilingual_headers: [...sample.headerTexts, ...classification.headers].some((header) => scripts(header).length === 2),
    },
  }
}

/** `config/datasets.json` with this dataset's entry added (an existing entry only with --overwrite). */
function datasetsFile(path: string, dataset: string, entry: object, overwrite: boolean) {
  const existing = existsSync(path)
    ? (readJsonFile(path, { kind: 'dataset config' }).value as { datasets?: Record<string, unknown>; formal_datasets?: string[] })
    : {}
  if (existing.datasets?.[dataset] !== undefined && !overwrite) {
    throw new InvalidInputError({
      code: 'dataset_already_configured',
      path,
      message: `${path} already configures ${dataset}; pass --overwrite to replace its entry.`,
      issues: [{ code: 'dataset_already_configured', path: `${path}:datasets.${dataset}`, message: 'already configured' }],
    })
  }
  const formal = existing.formal_datasets ?? []
  return {
    ...existing,
    datasets: { ...(existing.datasets ?? {}), [dataset]: entry },
    formal_datasets: formal.includes(dataset) ? formal : [...formal, dataset],
  }
}

function nextCommands(options: RunReleaseInitOptions, found: InitFindings): string[] {
  const layout = initLayout(options.dataset)
  const code = found.idStrategy === 'code' ? ' --id-strategy code' : ''
  const grading = found.catalogue_levels.needs_grading_config
    ? ` --grading-config ${join(options.outDir, `standards/${options.dataset}.grading.json`)}`
    : ''
  return [
    `releaseops release standards build --dataset ${options.dataset} --classification ${options.classification} --grading ${options.grading} --mapping ${join(options.outDir, layout.standards)} --out-dir ${options.outDir}${code}`,
    `releaseops release preprocess --input ${options.catalogue} --mapping ${join(options.outDir, layout.mapping)} --dataset ${options.dataset} --out <run>/processed/${options.dataset}/all.json${grading}`,
  ]
}

export async function runReleaseInit(options: RunReleaseInitOptions): Promise<InitReport> {
  const dataset = checkDatasetName(options.dataset)
  const found = await findings(options, dataset)
  const layout = initLayout(dataset)
  const proposal = initProposal(found, { mapping: layout.mapping, standards: layout.standards, datasets: layout.datasets })
  const overwrite = options.overwrite ?? false
  const datasets = datasetsFile(join(options.outDir, layout.datasets), dataset, proposal.datasetEntry, overwrite)
  // Checked before anything is written, so a refusal leaves no half of a proposal behind.
  const existing = [layout.mapping, layout.standards, layout.task, layout.report].find((relative) =>
    existsSync(join(options.outDir, relative)),
  )
  if (existing !== undefined && !overwrite) throw outputExistsError(join(options.outDir, existing))
  const write = (relative: string, value: unknown, replace = overwrite) =>
    writeJsonReport({ path: join(options.outDir, relative), value, ...(replace ? { overwrite: true } : {}) })
  const { dataset: _dataset, idStrategy: _idStrategy, ...inferred } = found
  const report: InitReport = {
    format: 'release-init-report-v1',
    dataset,
    status: proposal.problems.length > 0 ? 'needs_fixes' : 'proposed',
    inputs: {
      catalogue: { file: basename(options.catalogue), sha256: sha256File(options.catalogue) },
      classification: { file: basename(options.classification), sha256: sha256File(options.classification) },
      grading: { file: basename(options.grading), sha256: sha256File(options.grading) },
    },
    inferred,
    confirm: proposal.confirm,
    problems: proposal.problems,
    written: [layout.mapping, layout.standards, layout.datasets, layout.task],
    next: nextCommands(options, found),
  }
  write(layout.mapping, proposal.mapping)
  write(layout.standards, proposal.standardsMapping)
  write(layout.task, proposal.taskConfig)
  // datasets.json may hold other datasets: it is rewritten with this entry added.
  write(layout.datasets, datasets, true)
  write(layout.report, report)
  return report
}
