/**
 * @module release/xlsx: a row as every spreadsheet reader hands it out — the .xlsx reader, its worker and
 * the CSV reader — and the source that yields them.
 */

/** One row of a worksheet or a CSV file. */
export interface SheetRow {
  /** The spreadsheet row number (1 = the sheet's first row). */
  rowNumber: number
  /** Cell texts, 0-based by column; missing cells are "". */
  cells: string[]
  /** One letter per cell, its kind (`cell-kind.ts`); absent for CSV rows (all text). */
  kinds?: string
  /** The row is hidden in Excel. */
  hidden?: boolean
  /** The worksheet the row is on. */
  sheet?: string
}

/** The rows of a spreadsheet (an .xlsx workbook's worksheets or a CSV file) and what is known about them. */
export interface SheetRowSource {
  rows: AsyncIterable<SheetRow>
  /** The worksheet of the latest row read (known once iteration has started). */
  sheetName(): string
  /** Every visible worksheet of the file in tab order (known once iteration has started; CSV: `["csv"]`). */
  sheetNames?(): string[]
  /** Hidden worksheets left out (known once iteration has started). */
  hiddenSheets?(): string[]
  /** Merged ranges in the sheets read so far. */
  mergedRanges?(): number
}
