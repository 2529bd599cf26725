/**
 * @module release/standards: `releaseops release standards build`: reads the standard workbooks (merged
 * cells resolve to their range's value), builds the JSON assets and writes them in the runbook's layout
 * under `--out-dir`, with the alignment report and a grading manifest. A failed alignment writes only
 * the report and stops with every problem listed.
 */
import { readFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { writeJsonReport } from '../../io/atomic-file.js'
import { requireInputFile } from '../../io/require-input-file.js'
import { sha256Hex } from '../../io/sha256.js'
import { checkDatasetName } from '../contracts/dataset-name.js'
import { readXlsxRows, xlsxSheetNames } from '../xlsx/read-xlsx-rows.js'
import {
  type AlignmentReport,
  buildStandards,
  isClassificationHeader,
  isGradingHeader,
  type StandardRow,
} from './build-standards.js'

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
  headerRow: number
  notes: { row: number; text: string }[]
}

/** A note under a table (注：…, 备注, Note, *, ※), or a banner: one text across every filled cell. */
const notePrefix = /^(注|备注|附注|说明|note|notes)\s*[:：\d.、]|^[*※]/i

function isNote(cells: readonly string[]): boolean {
  const filled = cells.map((cell) => cell.trim()).filter((cell) => cell !== '')
  if (filled.length === 0) return false
  return notePrefix.test(filled[0] as string) || (filled.length > 1 && filled.every((cell) => cell === filled[0]))
}

/**
 * Reads one sheet's table: the header is the first row (among the first 30) that `isHeader` accepts, rows
 * above it are titles; the table ends at the first note row, and what follows is kept as notes.
 */
async function readTable(
  path: string,
  sheet: string | undefined,
  isHeader: (cells: readonly string[]) => boolean,
  kind: string,
): Promise<SheetTable> {
  requireInputFile(path)
  const names = xlsxSheetNames(path)
  const source = readXlsxRows({ path, sheets: [sheet ?? names[0] ?? 'Sheet1'] })
  const table: SheetTable = { headers: [], rows: [], mergedRanges: 0, headerRow: 0, notes: [] }
  let ended = false
  let scanned = 0
  for await (const { rowNumber, cells } of source.rows) {
    if (table.headerRow === 0) {
      if (isHeader(cells)) {
        table.headerRow = rowNumber
        table.headers = cells.map((cell) => cell.trim())
      } else if (++scanned >= 30) break
      continue
    }
    if (!ended && isNote(cells)) ended = true
    if (ended) {
      const text = cells.find((cell) => cell.trim() !== '')?.trim()
      if (text && !table.notes.some((note) => note.text === text)) table.notes.push({ row: rowNumber, text })
      continue
    }
    const row: Record<string, string> = {}
    table.headers.forEach((header, index) => {
      if (header) row[header] = (cells[index] ?? '').trim()
    })
    table.rows.push({ row: rowNumber, cells: row })
  }
  if (table.headerRow === 0) {
    const file = basename(path)
    throw new InvalidInputError({
      code: 'missing_header',
      path: `${file}:${source.sheetName()}`,
      message: `${file}:${source.sheetName()}: none of the first 30 rows is a ${kind} header row.`,
      issues: [{ code: 'missing_header', path: `${file}:${source.sheetName()}`, message: `no ${kind} header row in rows 1–30` }],
    })
  }
  table.mergedRanges = source.mergedRanges?.() ?? 0
  return table
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
  const classification = await readTable(options.classification, options.sheet, isClassificationHeader, 'classification')
  const grading = await readTable(options.grading, undefined, isGradingHeader, 'grading')
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
