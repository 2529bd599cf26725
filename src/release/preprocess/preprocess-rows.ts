/**
 * @module release/preprocess: a workbook's row stream → processed records, in the calling thread. Each
 * sheet's header row is found among its first rows (titles and group headers above it are skipped); a
 * sheet without the mapped headers is skipped and named in the report, unless `--sheet` asked for it.
 * Any bad header, cell or duplicate fails with every problem listed.
 */

import { basename } from 'node:path'
import { carriedCode } from '../../core/errors/error-code.js'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { sha256File } from '../../io/sha256.js'
import type { ColumnMapping } from '../contracts/column-mapping.js'
import { checkDatasetName } from '../contracts/dataset-name.js'
import type { ProcessedRecord } from '../contracts/processed-record.js'
import type { LevelScheme } from '../levels/level-scheme.js'
import { oneByOne, type WorkerRowSource } from '../workers/read-xlsx-in-worker.js'
import type { SheetRowSource } from '../xlsx/sheet-row.js'
import { HeaderFinder, type HeaderMatch } from './find-header-row.js'
import type { PreprocessReport } from './preprocess-report.js'
import { RowPreprocessor } from './row-preprocessor.js'

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

function failed(processor: RowPreprocessor, input: string): InvalidInputError {
  const first = processor.issues[0]
  const more = processor.totalIssues > 1 ? ` (+${processor.totalIssues - 1} more)` : ''
  return new InvalidInputError({
    code: carriedCode(first?.code ?? 'invalid_input'),
    path: first?.path ?? input,
    message: `${basename(input)} was not preprocessed: ${first?.path}: ${first?.message}${more}.`,
    issues: processor.issues,
  })
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

/** Per-sheet state while its header is being looked for. */
interface SheetScan {
  name: string
  finder: HeaderFinder
  /** undefined: still looking; true: header found, rows go to the processor; false: sheet skipped. */
  reading: boolean | undefined
}

/** Preprocesses the rows of `source` (a reader over `options.input`). */
export async function preprocessRows(
  source: SheetRowSource,
  options: PreprocessRowsOptions,
): Promise<{ records: ProcessedRecord[]; report: PreprocessReport }> {
  checkDatasetName(options.dataset)
  const wanted = [...options.mapping.keys()]
  const named = options.sheets !== undefined && options.sheets.length > 0
  let processor: RowPreprocessor | undefined
  const skipped: { sheet: string; reason: string; closest?: HeaderMatch }[] = []
  const seenSheets: string[] = []
  let scan: SheetScan | undefined
  let rows = 0
  const sha256 = sha256File(options.input)
  const closeScan = () => {
    if (scan && scan.reading === undefined) skip(scan)
  }
  const skip = (sheetScan: SheetScan) => {
    const closest = sheetScan.finder.closest
    skipped.push({ sheet: sheetScan.name, reason: sheetScan.finder.reason(), ...(closest ? { closest } : {}) })
  }
  const startReading = (row: { rowNumber: number; cells: readonly string[] }, sheet: string) => {
    if (!processor) {
      processor = new RowPreprocessor(
        {
          source: { dataset: options.dataset, file: basename(options.input), sha256, sheet },
          mapping: options.mapping,
          stripTrailingCodes: options.stripTrailingCodes ?? true,
          skipEmptyFieldName: options.skipEmptyFieldName ?? false,
          ...(options.onRecord ? { onRecord: options.onRecord } : {}),
          ...(options.levels ? { levels: options.levels } : {}),
        },
        row.cells,
        row.rowNumber,
      )
      if (!processor.headerValid) throw failed(processor, options.input)
    } else if (!processor.useSheet(sheet, row.cells, row.rowNumber)) throw failed(processor, options.input)
  }
  // A worker's source hands over its rows a batch at a time: one await a batch, not one a row.
  const batches = 'batches' in source ? (source as WorkerRowSource).batches : oneByOne(source.rows)
  for await (const batch of batches)
    for (const row of batch) {
      const sheet = row.sheet ?? source.sheetName()
      if (scan?.name !== sheet) {
        closeScan()
        scan = { name: sheet, finder: new HeaderFinder(wanted), reading: undefined }
        seenSheets.push(sheet)
      }
      if (scan.reading === true) {
        ;(processor as RowPreprocessor).add(row.rowNumber, row.cells, { kinds: row.kinds, hidden: row.hidden })
        if (++rows % 10_000 === 0) options.onProgress?.(rows)
        continue
      }
      if (scan.reading === false) continue
      if (scan.finder.offer(row.rowNumber, row.cells)) {
        scan.reading = true
        startReading(row, sheet)
      } else if (scan.finder.exhausted) {
        skip(scan)
        scan.reading = false
      }
    }
  closeScan()
  options.onProgress?.(rows)
  for (const name of source.sheetNames?.() ?? [])
    if (!seenSheets.includes(name) && (!named || options.sheets?.includes(name)))
      skipped.push({ sheet: name, reason: 'the sheet is empty' })
  // A sheet that had to be read (named, or the only candidate) reports its closest row's header problems.
  const closest = skipped.find((entry) => entry.closest && (named || !processor))
  if ((named && skipped.length > 0) || (!processor && closest)) {
    if (closest?.closest) startReading(closest.closest, closest.sheet)
    throw noHeader(options.input, skipped)
  }
  if (!processor)
    throw noHeader(
      options.input,
      skipped.length > 0 ? skipped : [{ sheet: source.sheetName(), reason: 'the worksheet is empty' }],
    )
  for (const entry of skipped) processor.skipSheet(entry.sheet, entry.reason)
  // Hidden sheets are not read unless named: each is reported, so a hidden old version is never data.
  for (const name of source.hiddenSheets?.() ?? [])
    processor.skipSheet(name, 'hidden sheet: not read (name it with --sheet to read it)')
  if (processor.totalIssues > 0) throw failed(processor, options.input)
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
