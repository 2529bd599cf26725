/**
 * @module release/preprocess: the walk over a workbook's rows, sheet by sheet. In each sheet the header
 * row is looked for among its first rows; once found, the sheet's rows go to the one `RowPreprocessor`
 * (made on the first header found, told of each further sheet); a sheet whose header is never found is
 * skipped, with the finder's reason and the closest row it saw.
 */
import { basename } from 'node:path'
import { carriedCode } from '../../core/errors/error-code.js'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import type { SheetRow } from '../xlsx/sheet-row.js'
import { HeaderFinder, type HeaderMatch } from './find-header-row.js'
import type { PreprocessRowsOptions } from './preprocess-rows.js'
import { RowPreprocessor } from './row-preprocessor.js'

export interface SkippedSheet {
  sheet: string
  reason: string
  closest?: HeaderMatch
}

/** The preprocessor's first issue as the error, with the count of the others. */
export function preprocessFailed(processor: RowPreprocessor, input: string): InvalidInputError {
  const first = processor.issues[0]
  const more = processor.totalIssues > 1 ? ` (+${processor.totalIssues - 1} more)` : ''
  return new InvalidInputError({
    code: carriedCode(first?.code ?? 'invalid_input'),
    path: first?.path ?? input,
    message: `${basename(input)} was not preprocessed: ${first?.path}: ${first?.message}${more}.`,
    issues: processor.issues,
  })
}

/** Per-sheet state while its header is being looked for. */
interface SheetScan {
  name: string
  finder: HeaderFinder
  /** undefined: still looking; true: header found, rows go to the processor; false: sheet skipped. */
  reading: boolean | undefined
}

export class SheetWalk {
  processor: RowPreprocessor | undefined
  readonly skipped: SkippedSheet[] = []
  readonly seenSheets: string[] = []
  /** Data rows handed to the processor. */
  rows = 0
  private scan: SheetScan | undefined
  private readonly wanted: string[]

  constructor(
    private readonly options: PreprocessRowsOptions,
    private readonly sha256: string,
  ) {
    this.wanted = [...options.mapping.keys()]
  }

  /** One row of `sheet`: a data row once the sheet's header is found, else offered to its header finder. */
  offer(row: SheetRow, sheet: string): void {
    let scan = this.scan
    if (scan?.name !== sheet) {
      this.close()
      scan = { name: sheet, finder: new HeaderFinder(this.wanted), reading: undefined }
      this.scan = scan
      this.seenSheets.push(sheet)
    }
    if (scan.reading === true) {
      ;(this.processor as RowPreprocessor).add(row.rowNumber, row.cells, { kinds: row.kinds, hidden: row.hidden })
      if (++this.rows % 10_000 === 0) this.options.onProgress?.(this.rows)
      return
    }
    if (scan.reading === false) return
    if (scan.finder.offer(row.rowNumber, row.cells)) {
      scan.reading = true
      this.startReading(row, sheet)
    } else if (scan.finder.exhausted) {
      this.skip(scan)
      scan.reading = false
    }
  }

  /** Ends the current sheet: skipped when its header was still being looked for. */
  close(): void {
    if (this.scan && this.scan.reading === undefined) this.skip(this.scan)
  }

  /** `row` is `sheet`'s header: the processor is made on it, or told of the new sheet; a bad header throws. */
  startReading(row: { rowNumber: number; cells: readonly string[] }, sheet: string): void {
    const { options } = this
    if (!this.processor) {
      this.processor = new RowPreprocessor(
        {
          source: { dataset: options.dataset, file: basename(options.input), sha256: this.sha256, sheet },
          mapping: options.mapping,
          stripTrailingCodes: options.stripTrailingCodes ?? true,
          skipEmptyFieldName: options.skipEmptyFieldName ?? false,
          ...(options.onRecord ? { onRecord: options.onRecord } : {}),
          ...(options.levels ? { levels: options.levels } : {}),
        },
        row.cells,
        row.rowNumber,
      )
      if (!this.processor.headerValid) throw preprocessFailed(this.processor, options.input)
    } else if (!this.processor.useSheet(sheet, row.cells, row.rowNumber)) throw preprocessFailed(this.processor, options.input)
  }

  private skip(scan: SheetScan): void {
    const closest = scan.finder.closest
    this.skipped.push({ sheet: scan.name, reason: scan.finder.reason(), ...(closest ? { closest } : {}) })
  }
}
