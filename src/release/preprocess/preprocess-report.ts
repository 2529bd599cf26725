/** @module release/preprocess: the preprocess stage's report (what was read, skipped and counted) and its source. */

export interface PreprocessSource {
  dataset: string
  /** The input's base name (no directories: outputs must not depend on where the input lies). */
  file: string
  sha256: string
  /** The first sheet read (`useSheet` moves on to others). */
  sheet: string
}

/** One worksheet's share of the report. */
export interface SheetReport {
  sheet: string
  /** The row that held the mapped headers (rows above it are titles and group headers). */
  header_row: number
  data_rows: number
  blank_rows: number
  subtotal_rows: number
}

export interface PreprocessReport {
  format: 'preprocess-report-v1'
  dataset: string
  source_file: string
  source_sha256: string
  sheet: string
  data_rows: number
  blank_rows: number
  records: number
  exact_duplicates: { count: number; rows: [kept: number, dropped: number][] }
  skipped_empty_field_name: { count: number; rows: number[] }
  trailing_codes: number
  label_status: Record<string, number>
  data_level: Record<string, number>
  ignored_columns: string[]
  /** Every sheet read, with its header row; sheets left out and why. */
  sheets: SheetReport[]
  skipped_sheets: { sheet: string; reason: string }[]
  /** Rows with no field name that say 小计/合计/总计/subtotal/total: skipped. */
  subtotal_rows: number
  /** Labelled rows without a data level (kept, unusable for grading): their cells. */
  labelled_without_level: { count: number; rows: string[] }
  /** Rows hidden in Excel: read like any other; present only when there are some. */
  hidden_rows?: { count: number; rows: string[] }
}

/** A sheet's report before any row is read. */
export function emptySheetReport(sheet: string, headerRow: number): SheetReport {
  return { sheet, header_row: headerRow, data_rows: 0, blank_rows: 0, subtotal_rows: 0 }
}

/** The report before any row is read, its first sheet `first` (keys in the order the report is written). */
export function emptyPreprocessReport(source: PreprocessSource, first: SheetReport): PreprocessReport {
  return {
    format: 'preprocess-report-v1',
    dataset: source.dataset,
    source_file: source.file,
    source_sha256: source.sha256,
    sheet: source.sheet,
    data_rows: 0,
    blank_rows: 0,
    records: 0,
    exact_duplicates: { count: 0, rows: [] },
    skipped_empty_field_name: { count: 0, rows: [] },
    trailing_codes: 0,
    label_status: {},
    data_level: {},
    ignored_columns: [],
    sheets: [first],
    skipped_sheets: [],
    subtotal_rows: 0,
    labelled_without_level: { count: 0, rows: [] },
  }
}
