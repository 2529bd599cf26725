/**
 * @module release/standards: `releaseops release standards build`: reads the standard workbooks (merged
 * cells resolve to their range's value), builds the JSON assets and writes them in the runbook's layout
 * under `--out-dir`, with the alignment report and a grading manifest. A failed alignment writes only
 * the report and stops with every problem listed.
 */
import { readFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import ExcelJS from 'exceljs'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { checkDatasetName } from '../contracts/dataset-name.js'
import { writeJsonReport } from '../io/atomic-file.js'
import { requireInputFile } from '../io/require-input-file.js'
import { sha256Hex } from '../io/sha256.js'
import { cellText } from '../xlsx/read-xlsx-rows.js'
import { type AlignmentReport, buildStandards, type StandardRow } from './build-standards.js'

export interface RunStandardsBuildOptions {
  dataset: string
  classification: string
  grading: string
  outDir: string
  idStrategy?: 'path' | 'code'
  sheet?: string
  overwrite?: boolean
}

interface SheetTable {
  headers: string[]
  rows: StandardRow[]
  mergedRanges: number
}

async function readTable(path: string, sheet: string | undefined): Promise<SheetTable> {
  requireInputFile(path)
  const workbook = new ExcelJS.Workbook()
  try {
    await workbook.xlsx.readFile(path)
  } catch (error) {
    throw new InvalidInputError({
      code: 'xlsx_unreadable',
      path: basename(path),
      message: `Cannot read ${basename(path)} as an .xlsx workbook: ${(error as Error).message}`,
      issues: [],
    })
  }
  const worksheet = sheet === undefined ? workbook.worksheets[0] : workbook.getWorksheet(sheet)
  if (!worksheet) {
    const names = workbook.worksheets.map((item) => item.name).join(', ')
    throw new InvalidInputError({
      code: 'sheet_not_found',
      path: basename(path),
      message: `Worksheet "${sheet}" not found in ${basename(path)}; sheets: ${names}.`,
      issues: [{ code: 'sheet_not_found', path: `${basename(path)}:${sheet}`, message: `sheets are ${names}` }],
    })
  }
  // A merged cell reads as its range's top-left value, so a domain merged down its leaves fills every row.
  const headers: string[] = []
  worksheet.getRow(1).eachCell({ includeEmpty: true }, (cell, column) => {
    headers[column - 1] = cellText(cell.value).trim()
  })
  const rows: StandardRow[] = []
  worksheet.eachRow((row, number) => {
    if (number === 1) return
    const cells: Record<string, string> = {}
    headers.forEach((header, index) => {
      if (header) cells[header] = cellText(row.getCell(index + 1).value).trim()
    })
    rows.push({ row: number, cells })
  })
  return { headers, rows, mergedRanges: (worksheet.model as { merges?: unknown[] }).merges?.length ?? 0 }
}

export const standardsLayout = (dataset: string) => ({
  registry: `assets/registries/${dataset}.registry.json`,
  corpus: `assets/corpora/${dataset}.corpus.json`,
  classification: `standards/${dataset}.classification.json`,
  grading: `standards/${dataset}.grading.json`,
  alignment: `standards/${dataset}.alignment.json`,
  gradingManifest: 'standards/grading-manifest.json',
})

/**
 * `--out-dir` is the release root (it gets `assets/` and `standards/`): a folder named `assets` or
 * `standards` is the common slip that would write `assets/assets/…`, refused before anything is read.
 */
function checkOutDir(outDir: string): void {
  const name = basename(resolve(outDir))
  if (name !== 'assets' && name !== 'standards') return
  throw new InvalidInputError({
    code: 'out_dir_inside_layout',
    path: outDir,
    message: `--out-dir is the release root: assets/… and standards/… are written under it, so ${outDir} would give ${join(outDir, name === 'assets' ? 'assets' : 'standards')}/…; pass its parent (${dirname(resolve(outDir))}).`,
    issues: [],
  })
}

export async function runStandardsBuild(options: RunStandardsBuildOptions): Promise<AlignmentReport> {
  const dataset = checkDatasetName(options.dataset)
  checkOutDir(options.outDir)
  const classification = await readTable(options.classification, options.sheet)
  const grading = await readTable(options.grading, undefined)
  const built = buildStandards({
    dataset,
    idStrategy: options.idStrategy ?? 'path',
    source: basename(options.classification),
    classification,
    grading,
  })
  const layout = standardsLayout(dataset)
  const write = (relative: string, value: unknown) =>
    writeJsonReport({ path: join(options.outDir, relative), value, ...(options.overwrite ? { overwrite: true } : {}) })
  write(layout.alignment, built.report)
  if (built.report.status === 'failed') {
    throw new InvalidInputError({
      code: 'standards_misaligned',
      path: join(options.outDir, layout.alignment),
      message: `The standards of ${dataset} do not align (${built.report.errors.length} problem(s)); first: ${built.report.errors[0]}.`,
      issues: built.report.errors.slice(0, 500).map((message) => ({ code: 'standards_misaligned', path: dataset, message })),
    })
  }
  write(layout.registry, built.registry)
  write(layout.corpus, built.corpus)
  write(layout.classification, built.classification)
  write(layout.grading, built.grading)
  const gradingBytes = readFileSync(join(options.outDir, layout.grading))
  write(layout.gradingManifest, {
    datasets: { [dataset]: { path: basename(layout.grading), sha256: sha256Hex(gradingBytes) } },
  })
  return built.report
}
