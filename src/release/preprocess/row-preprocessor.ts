/**
 * @module release/preprocess: spreadsheet rows → processed records, one row at a time (pure; the shell
 * streams rows in). Checks the header against the mapping, normalises cells and labels, drops exact
 * duplicates, and collects every problem with its spreadsheet row number and column header.
 */
import type { InputIssue } from '../../core/errors/invalid-input-error.js'
import { stableRecordId } from '../../envs/grading/stable-record-id.js'
import { type ColumnMapping, freeMetadataName, type MappedField } from '../contracts/column-mapping.js'
import type { LabelNote, ProcessedRecord } from '../contracts/processed-record.js'
import { type CatalogueLevels, catalogueLevels } from '../levels/catalogue-levels.js'
import type { LevelScheme } from '../levels/level-scheme.js'
import { columnName } from '../xlsx/cell-reference.js'
import { headerKey } from './find-header-row.js'
import { cleanText, detectTrailingCode, normalizeName, normalizeType, stripTrailingCode } from './normalize-cell.js'

const labelFields = ['level_1', 'level_2', 'level_3', 'level_4'] as const

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

export interface PreprocessOptions {
  source: PreprocessSource
  mapping: ColumnMapping
  /** Remove trailing codes such as "（B4-1）" from labels (default; always recorded in `label_notes`). */
  stripTrailingCodes?: boolean
  /** Skip rows without a field name instead of failing. */
  skipEmptyFieldName?: boolean
  /** Receives each record as it is made (then records are not kept; `finish` returns none). */
  onRecord?: (record: ProcessedRecord) => void
  /** The grading standard's levels and level map (default: L1–L4, numbered spellings only). */
  levels?: LevelScheme
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

/** A row's cell kinds (`xlsx/cell-kind.ts` letters; absent for CSV) and whether Excel hides it. */
export interface RowExtras {
  kinds?: string | undefined
  hidden?: boolean | undefined
}

/** Text of a subtotal or total row (in any cell of a row without a field name). */
const subtotal = /^(小计|合计|总计|共计|subtotal|sub-total|total)\b|^(小计|合计|总计|共计)/i

/** Issues beyond this many are counted, not listed (the failed-audit file gets every listed one). */
const maxIssues = 10_000

export class RowPreprocessor {
  readonly issues: InputIssue[] = []
  private issueCount = 0
  private readonly columns = new Map<MappedField, number>()
  private readonly headers = new Map<MappedField, string>()
  /** The mapped free metadata columns, in the mapping's order: [metadata key, field]. */
  private readonly freeFields: [string, MappedField][] = []
  private readonly records: ProcessedRecord[] = []
  private recordCount = 0
  /** Record id → its position in the `first…` lists: the row where it was first seen, and its labels. */
  private readonly seen = new Map<string, number>()
  private readonly firstRows: number[] = []
  private readonly firstClassifications: ProcessedRecord['classification'][] = []
  private readonly firstLevels: string[] = []
  private readonly report: PreprocessReport
  private readonly levels: CatalogueLevels

  private sheet: string
  private sheetReport: SheetReport

  constructor(
    private readonly options: PreprocessOptions,
    header: readonly string[],
    headerRow = 1,
  ) {
    const { source } = options
    this.levels = catalogueLevels(options.levels)
    this.sheet = source.sheet
    this.sheetReport = { sheet: source.sheet, header_row: headerRow, data_rows: 0, blank_rows: 0, subtotal_rows: 0 }
    this.report = {
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
      sheets: [this.sheetReport],
      skipped_sheets: [],
      subtotal_rows: 0,
      labelled_without_level: { count: 0, rows: [] },
    }
    this.mapHeader(header, headerRow)
  }

  /** Goes on with the rows of another sheet, whose header is `header` on row `headerRow`. */
  useSheet(sheet: string, header: readonly string[], headerRow: number): boolean {
    const before = this.issueCount
    this.sheet = sheet
    this.sheetReport = { sheet, header_row: headerRow, data_rows: 0, blank_rows: 0, subtotal_rows: 0 }
    this.report.sheets.push(this.sheetReport)
    this.mapHeader(header, headerRow)
    return this.issueCount === before
  }

  /** Records a sheet that was not read. */
  skipSheet(sheet: string, reason: string): void {
    this.report.skipped_sheets.push({ sheet, reason })
  }

  private mapHeader(header: readonly string[], headerRow: number): void {
    const { mapping } = this.options
    this.columns.clear()
    this.headers.clear()
    // Headers compare with whitespace collapsed (a bilingual `字段名\nField Name` is `字段名 Field Name`).
    const positions = new Map<string, number>()
    const repeats = new Map<string, number>()
    header.forEach((raw, index) => {
      const text = headerKey(raw)
      if (!text) return
      if (positions.has(text)) repeats.set(text, repeats.get(text) ?? index)
      else positions.set(text, index)
    })
    for (const [text, field] of mapping) {
      const key = headerKey(text)
      const index = positions.get(key)
      // A repeated header matters only when it is mapped: which of its columns is meant cannot be told.
      if (index !== undefined && repeats.has(key))
        this.issue(
          'duplicate_header',
          this.where(headerRow, key),
          `mapped header "${key}" appears in columns ${index + 1} and ${(repeats.get(key) as number) + 1}: rename one of them`,
        )
      if (index === undefined) {
        this.issue(
          'missing_column',
          this.where(headerRow, key),
          `mapped column "${key}" (${field}) is not in the header row (row ${headerRow}); headers are: ${[...positions.keys()].join(', ')}`,
        )
      } else {
        this.columns.set(field, index)
        this.headers.set(field, key)
      }
    }
    const mapped = new Set([...mapping.keys()].map(headerKey))
    for (const text of positions.keys())
      if (!mapped.has(text) && !this.report.ignored_columns.includes(text)) this.report.ignored_columns.push(text)
    this.freeFields.length = 0
    for (const field of this.columns.keys()) {
      const name = freeMetadataName(field)
      if (name !== undefined) this.freeFields.push([name, field])
    }
  }

  private where(row: number, column?: string): string {
    const { file } = this.options.source
    const sheet = this.sheet
    return column === undefined ? `${file}:${sheet}:row ${row}` : `${file}:${sheet}:row ${row}:${column}`
  }

  private issue(code: string, path: string, message: string): void {
    this.issueCount++
    if (this.issues.length < maxIssues) this.issues.push({ code, path, message })
  }

  /** True when the header matched the mapping (rows are only processed then). */
  get headerValid(): boolean {
    return this.issueCount === 0
  }

  get totalIssues(): number {
    return this.issueCount
  }

  /**
   * A mapped cell's text. One rule for cells that hold no value: an error value (`#N/A`, `#REF!`) or a
   * formula without a cached value in a mapped column is an issue naming the cell, so the stage fails
   * with nothing written (never a blank that would turn a row unlabelled).
   */
  private cell(cells: readonly string[], field: MappedField, rowNumber: number, kinds: string | undefined): string {
    const index = this.columns.get(field)
    if (index === undefined) return ''
    const raw = cells[index] ?? ''
    const kind = kinds?.[index]
    if (kind === 'f' || kind === 'e') {
      const where = `${this.where(rowNumber, this.headers.get(field))} (column ${columnName(index)})`
      if (kind === 'f')
        this.issue(
          'formula_without_value',
          where,
          'a formula without a cached value (open the file in Excel or LibreOffice and save it, or paste values)',
        )
      else
        this.issue(
          'error_cell',
          where,
          `the cell holds the Excel error ${raw} (a broken formula or lookup): fix it or clear the cell, then run again`,
        )
      return ''
    }
    return cleanText(raw)
  }

  add(rowNumber: number, cells: readonly string[], extras: RowExtras = {}): void {
    if (extras.hidden) {
      this.report.hidden_rows ??= { count: 0, rows: [] }
      this.report.hidden_rows.count++
      if (this.report.hidden_rows.rows.length < maxIssues) this.report.hidden_rows.rows.push(this.where(rowNumber))
    }
    if (cells.every((cell) => cell.trim() === '')) {
      this.report.blank_rows++
      this.sheetReport.blank_rows++
      return
    }
    const issuesBefore = this.issueCount
    const value = (field: MappedField) => this.cell(cells, field, rowNumber, extras.kinds)
    const fieldName = value('field_name')
    if ((!fieldName || subtotal.test(fieldName)) && cells.some((cell) => subtotal.test(cell.trim()))) {
      this.report.subtotal_rows++
      this.sheetReport.subtotal_rows++
      return
    }
    this.report.data_rows++
    this.sheetReport.data_rows++
    if (!fieldName) {
      if (this.options.skipEmptyFieldName) {
        this.report.skipped_empty_field_name.count++
        this.report.skipped_empty_field_name.rows.push(rowNumber)
      } else this.issue('empty_field_name', this.where(rowNumber, this.headers.get('field_name')), 'field_name is empty')
      return
    }
    // A merged 表名 cell holds its text in its first row only: the other rows read blank.
    const tableName = value('table_name')
    if (!tableName && this.columns.has('table_name')) {
      this.issue(
        'empty_table_name',
        this.where(rowNumber, this.headers.get('table_name')),
        'table_name is empty (a blank or merged cell): every row needs its own table name',
      )
      return
    }
    const rawLevel = value('data_level')
    const level = this.levels.read(rawLevel)
    if (typeof level !== 'string') {
      this.issue('unknown_level', this.where(rowNumber, this.headers.get('data_level')), level.problem)
      return
    }
    const classification = { level_1: '', level_2: '', level_3: '', level_4: '' }
    const notes: LabelNote[] = []
    for (const field of labelFields) {
      let label = value(field)
      const code = detectTrailingCode(label)
      if (code) {
        if (this.options.stripTrailingCodes !== false) {
          notes.push({ field, code, action: 'stripped', written: label })
          label = stripTrailingCode(label)
        } else notes.push({ field, code, action: 'kept' })
      }
      classification[field] = label
    }
    if (this.issueCount > issuesBefore) return
    const metadata = {
      database_name: value('database_name'),
      database_description: value('database_description'),
      table_name: tableName,
      table_description: value('table_description'),
      field_name: fieldName,
      field_description: value('field_description'),
      field_type: normalizeType(value('field_type')),
      value: '',
      // Only when mapped, so records of mappings without it keep their bytes.
      ...(this.columns.has('sample_values') ? { sample_values: value('sample_values') } : {}),
    }
    for (const [name, field] of this.freeFields) (metadata as Record<string, string>)[name] = value(field)
    // The id is a hash of the cleaned database, table and field names (which cleaning leaves unchanged),
    // so equal ids are equal identities: it keys the duplicate check without a second identity string.
    const { source } = this.options
    const id = stableRecordId(source.dataset, metadata)
    const previous = this.seen.get(id)
    if (previous !== undefined) {
      const firstRow = this.firstRows[previous] as number
      const labels = this.firstClassifications[previous] as ProcessedRecord['classification']
      const same = this.firstLevels[previous] === level && labelFields.every((field) => labels[field] === classification[field])
      if (same) {
        this.report.exact_duplicates.count++
        this.report.exact_duplicates.rows.push([firstRow, rowNumber])
      } else {
        this.issue(
          'conflicting_duplicate',
          this.where(rowNumber, this.headers.get('field_name')),
          `${metadata.database_name}.${metadata.table_name}.${fieldName} is labelled differently in rows ${firstRow} and ${rowNumber}`,
        )
      }
      return
    }
    this.seen.set(id, this.firstRows.length)
    this.firstRows.push(rowNumber)
    this.firstClassifications.push(classification)
    this.firstLevels.push(level)
    const labeled = labelFields.some((field) => classification[field] !== '')
    if (labeled && level === '' && this.columns.has('data_level')) {
      this.report.labelled_without_level.count++
      if (this.report.labelled_without_level.rows.length < maxIssues)
        this.report.labelled_without_level.rows.push(this.where(rowNumber, this.headers.get('data_level')))
    }
    this.count(this.report.label_status, labeled ? 'labeled' : 'unlabeled')
    this.count(this.report.data_level, level || '<empty>')
    this.report.trailing_codes += notes.length
    this.recordCount++
    const record: ProcessedRecord = {
      id,
      key: normalizeName(fieldName),
      label_status: labeled ? 'labeled' : 'unlabeled',
      metadata,
      classification,
      data_level: level,
      ...(notes.length > 0 ? { label_notes: notes } : {}),
      provenance: { source_file: source.file, source_sha256: source.sha256, sheet: this.sheet, row: rowNumber },
    }
    if (this.options.onRecord) this.options.onRecord(record)
    else this.records.push(record)
  }

  private count(counter: Record<string, number>, key: string): void {
    counter[key] = (counter[key] ?? 0) + 1
  }

  finish(): { records: ProcessedRecord[]; report: PreprocessReport } {
    this.report.records = this.recordCount
    this.report.label_status = Object.fromEntries(Object.entries(this.report.label_status).sort())
    this.report.data_level = Object.fromEntries(Object.entries(this.report.data_level).sort())
    return { records: this.records, report: this.report }
  }
}
