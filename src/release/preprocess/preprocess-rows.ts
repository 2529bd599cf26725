/**
 * @module release/preprocess: a worksheet's row stream → processed records, in the calling thread. Any bad
 * header, cell or duplicate fails with every problem listed.
 */
import { basename } from 'node:path'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import type { ColumnMapping } from '../contracts/column-mapping.js'
import { checkDatasetName } from '../contracts/dataset-name.js'
import type { ProcessedRecord } from '../contracts/processed-record.js'
import { sha256File } from '../io/sha256.js'
import { oneByOne, type WorkerRowSource } from '../workers/read-xlsx-in-worker.js'
import type { XlsxRowSource } from '../xlsx/read-xlsx-rows.js'
import { type PreprocessReport, RowPreprocessor } from './row-preprocessor.js'

export interface PreprocessRowsOptions {
  input: string
  mapping: ColumnMapping
  dataset: string
  sheet?: string
  /** Remove trailing codes such as "（B4-1）" from labels (default true, as the original always does). */
  stripTrailingCodes?: boolean
  skipEmptyFieldName?: boolean
  onProgress?: (rows: number) => void
  /** Receives each record as it is made, instead of the result holding them. */
  onRecord?: (record: ProcessedRecord) => void
}

function failed(processor: RowPreprocessor, input: string): InvalidInputError {
  const first = processor.issues[0]
  const more = processor.totalIssues > 1 ? ` (+${processor.totalIssues - 1} more)` : ''
  return new InvalidInputError({
    code: first?.code ?? 'invalid_input',
    path: first?.path ?? input,
    message: `${basename(input)} was not preprocessed: ${first?.path}: ${first?.message}${more}.`,
    issues: processor.issues,
  })
}

/** Preprocesses the rows of `source` (a reader over `options.input`). */
export async function preprocessRows(
  source: XlsxRowSource,
  options: PreprocessRowsOptions,
): Promise<{ records: ProcessedRecord[]; report: PreprocessReport }> {
  checkDatasetName(options.dataset)
  let processor: RowPreprocessor | undefined
  let rows = 0
  // A worker's source hands over its rows a batch at a time: one await a batch, not one a row.
  const batches = 'batches' in source ? (source as WorkerRowSource).batches : oneByOne(source.rows)
  for await (const batch of batches)
    for (const row of batch) {
      if (!processor) {
        if (row.rowNumber !== 1) {
          const path = `${basename(options.input)}:${source.sheetName()}:row 1`
          throw new InvalidInputError({
            code: 'missing_header',
            path,
            message: `${path}: row 1 must hold the column headers, but it is empty.`,
            issues: [{ code: 'missing_header', path, message: 'row 1 is empty' }],
          })
        }
        processor = new RowPreprocessor(
          {
            source: {
              dataset: options.dataset,
              file: basename(options.input),
              sha256: sha256File(options.input),
              sheet: source.sheetName(),
            },
            mapping: options.mapping,
            stripTrailingCodes: options.stripTrailingCodes ?? true,
            skipEmptyFieldName: options.skipEmptyFieldName ?? false,
            ...(options.onRecord ? { onRecord: options.onRecord } : {}),
          },
          row.cells,
        )
        if (!processor.headerValid) throw failed(processor, options.input)
        continue
      }
      processor.add(row.rowNumber, row.cells)
      if (++rows % 10_000 === 0) options.onProgress?.(rows)
    }
  options.onProgress?.(rows)
  if (!processor) {
    throw new InvalidInputError({
      code: 'empty_input',
      path: basename(options.input),
      message: `${basename(options.input)} has no header row.`,
      issues: [{ code: 'empty_input', path: basename(options.input), message: 'the worksheet is empty' }],
    })
  }
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
