/**
 * @module release/preprocess: a workbook's row stream → processed records, in the calling thread. Each
 * sheet's header row is found among its first rows (titles and group headers above it are skipped); a
 * sheet without the mapped headers is skipped and named in the report, unless `--sheet` asked for it.
 * Any bad header, cell or duplicate fails with every problem listed.
 */

import { basename } from 'node:path'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { sha256File } from '../../io/sha256.js'
import type { ColumnMapping } from '../contracts/column-mapping.js'
import { checkDatasetName } from '../contracts/dataset-name.js'
import type { ProcessedRecord } from '../contracts/processed-record.js'
import type { LevelScheme } from '../levels/level-scheme.js'
import { oneByOne, type WorkerRowSource } from '../workers/read-xlsx-in-worker.js'
import type { SheetRowSource } from '../xlsx/sheet-row.js'
import type { PreprocessReport } from './preprocess-report.js'
import type { RowPreprocessor } from './row-preprocessor.js'
import { preprocessFailed, SheetWalk, type SkippedSheet } from './sheet-walk.js'

export interface PreprocessRowsOptions {
  input: string
  mapping: ColumnMapping
  dataset: string
  /** Worksheets to read (each must hold the mapped headers); default: every sheet that does. */
  sheets?: readonly string[]
  /** Remove trailing codes such as "（B4-1）" from labels (default true, as the original always does). */
  stripTrailingCodes?: boolean
  skipEmptyFieldName?: boolean
  onProgress?: (rows: number) => void
  /** Receives each record as it is made, instead of the result holding them. */
  onRecord?: (record: ProcessedRecord) => void
  /** The grading standard's levels and level map (default: L1–L4). */
  levels?: LevelScheme
}

function noHeader(input: string, reasons: { sheet: string; reason: string }[]): InvalidInputError {
  const file = basename(input)
  const issues = reasons.map(({ sheet, reason }) => ({ code: 'missing_header', path: `${file}:${sheet}`, message: reason }))
  const first = issues[0]
  return new InvalidInputError({
    code: 'missing_header',
    path: first?.path ?? file,
    message: first
      ? `${file} was not preprocessed: ${first.path}: ${first.message}${issues.length > 1 ? ` (+${issues.length - 1} more sheet(s))` : ''}.`
      : `${file} has no header row.`,
    issues,
  })
}

/**
 * The sheets of the file that no row came from, as skipped (empty); only the named ones when `--sheet`
 * named some.
 */
export function emptySheets(options: {
  sheetNames: readonly string[]
  seen: readonly string[]
  named?: readonly string[] | undefined
}): SkippedSheet[] {
  const named = options.named !== undefined && options.named.length > 0
  return options.sheetNames
    .filter((name) => !options.seen.includes(name) && (!named || options.named?.includes(name)))
    .map((sheet) => ({ sheet, reason: 'the sheet is empty' }))
}

/**
 * Throws when a header is missing where one was needed: a named sheet skipped, or no sheet read at all
 * (then a sheet that had a candidate row reports that row's header problems).
 */
function refuseMissingHeaders(walk: SheetWalk, source: SheetRowSource, options: PreprocessRowsOptions): RowPreprocessor {
  const { skipped } = walk
  const named = options.sheets !== undefined && options.sheets.length > 0
  // A sheet that had to be read (named, or the only candidate) reports its closest row's header problems.
  const closest = skipped.find((entry) => entry.closest && (named || !walk.processor))
  if ((named && skipped.length > 0) || (!walk.processor && closest)) {
    if (closest?.closest) walk.startReading(closest.closest, closest.sheet)
    throw noHeader(options.input, skipped)
  }
  if (!walk.processor)
    throw noHeader(
      options.input,
      skipped.length > 0 ? skipped : [{ sheet: source.sheetName(), reason: 'the worksheet is empty' }],
    )
  return walk.processor
}

/** Preprocesses the rows of `source` (a reader over `options.input`). */
export async function preprocessRows(
  source: SheetRowSource,
  options: PreprocessRowsOptions,
): Promise<{ records: ProcessedRecord[]; report: PreprocessReport }> {
  checkDatasetName(options.dataset)
  const walk = new SheetWalk(options, sha256File(options.input))
  // A worker's source hands over its rows a batch at a time: one await a batch, not one a row.
  const batches = 'batches' in source ? (source as WorkerRowSource).batches : oneByOne(source.rows)
  for await (const batch of batches) for (const row of batch) walk.offer(row, row.sheet ?? source.sheetName())
  walk.close()
  options.onProgress?.(walk.rows)
  walk.skipped.push(...emptySheets({ sheetNames: source.sheetNames?.() ?? [], seen: walk.seenSheets, named: options.sheets }))
  const processor = refuseMissingHeaders(walk, source, options)
  for (const entry of walk.skipped) processor.skipSheet(entry.sheet, entry.reason)
  // Hidden sheets are not read unless named: each is reported, so a hidden old version is never data.
  for (const name of source.hiddenSheets?.() ?? [])
    processor.skipSheet(name, 'hidden sheet: not read (name it with --sheet to read it)')
  if (processor.totalIssues > 0) throw preprocessFailed(processor, options.input)
  const result = processor.finish()
  if (result.report.records === 0) {
    throw new InvalidInputError({
      code: 'empty_input',
      path: basename(options.input),
      message: `${basename(options.input)} has no data rows.`,
      issues: [{ code: 'empty_input', path: `${basename(options.input)}:${source.sheetName()}`, message: 'no data rows' }],
    })
  }
  return result
}
