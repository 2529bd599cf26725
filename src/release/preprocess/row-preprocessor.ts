/**
 * @module release/preprocess: spreadsheet rows → processed records, one row at a time (pure; the shell
 * streams rows in). Checks the header against the mapping, normalises cells and labels, drops exact
 * duplicates, and collects every problem with its spreadsheet row number and column header.
 */
import type { InputIssue } from '../../core/errors/invalid-input-error.js'
import { stableRecordId } from '../../envs/grading/stable-record-id.js'
import { type ColumnMapping, freeMetadataName, type MappedField } from '../contracts/column-mapping.js'
import type { FieldMetadata, LabelNote, ProcessedRecord } from '../contracts/processed-record.js'
import { type CatalogueLevels, catalogueLevels } from '../levels/catalogue-levels.js'
import type { LevelScheme } from '../levels/level-scheme.js'
import { columnName } from '../xlsx/cell-reference.js'
import { mapHeader } from './map-header.js'
import { cleanText, normalizeName } from './normalize-cell.js'
import {
  emptyPreprocessReport,
  emptySheetReport,
  type PreprocessReport,
  type PreprocessSource,
  type SheetReport,
} from './preprocess-report.js'
import { type CellValue, type Classification, labelFields, readLabels, readMetadata, valuelessCell } from './row-fields.js'

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

/** What the duplicate check and the record read of a row. */
interface RowLabels {
  rowNumber: number
  classification: Classification
  level: string
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
  private readonly firstClassifications: Classification[] = []
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
    this.levels = catalogueLevels(options.levels)
    this.sheet = options.source.sheet
    this.sheetReport = emptySheetReport(options.source.sheet, headerRow)
    this.report = emptyPreprocessReport(options.source, this.sheetReport)
    this.mapHeader(header, headerRow)
  }

  /** Goes on with the rows of another sheet, whose header is `header` on row `headerRow`. */
  useSheet(sheet: string, header: readonly string[], headerRow: number): boolean {
    const before = this.issueCount
    this.sheet = sheet
    this.sheetReport = emptySheetReport(sheet, headerRow)
    this.report.sheets.push(this.sheetReport)
    this.mapHeader(header, headerRow)
    return this.issueCount === before
  }

  /** Records a sheet that was not read. */
  skipSheet(sheet: string, reason: string): void {
    this.report.skipped_sheets.push({ sheet, reason })
  }

  private mapHeader(header: readonly string[], headerRow: number): void {
    const { found, problems, unmapped } = mapHeader(header, this.options.mapping, headerRow)
    for (const { code, header: text, message } of problems) this.issue(code, this.where(headerRow, text), message)
    this.columns.clear()
    this.headers.clear()
    for (const { field, index, header: text } of found) {
      this.columns.set(field, index)
      this.headers.set(field, text)
    }
    for (const text of unmapped) if (!this.report.ignored_columns.includes(text)) this.report.ignored_columns.push(text)
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
    const problem = valuelessCell(kinds?.[index], raw)
    if (!problem) return cleanText(raw)
    this.issue(problem.code, `${this.where(rowNumber, this.headers.get(field))} (column ${columnName(index)})`, problem.message)
    return ''
  }

  /** One data row: counted, checked, and made a record unless it is blank, a subtotal, a repeat or has issues. */
  add(rowNumber: number, cells: readonly string[], extras: RowExtras = {}): void {
    if (extras.hidden) this.noteHidden(rowNumber)
    if (this.skipBlank(cells)) return
    const issuesBefore = this.issueCount
    const value: CellValue = (field) => this.cell(cells, field, rowNumber, extras.kinds)
    const fieldName = value('field_name')
    if (this.skipSubtotal(fieldName, cells)) return
    this.report.data_rows++
    this.sheetReport.data_rows++
    if (!fieldName) {
      this.emptyFieldName(rowNumber)
      return
    }
    const tableName = this.tableName(value, rowNumber)
    if (tableName === undefined) return
    const level = this.dataLevel(value, rowNumber)
    if (level === undefined) return
    const { classification, notes } = readLabels(value, this.options.stripTrailingCodes !== false)
    if (this.issueCount > issuesBefore) return
    const metadata = readMetadata(value, {
      tableName,
      fieldName,
      sampleValues: this.columns.has('sample_values'),
      freeFields: this.freeFields,
    })
    // The id is a hash of the cleaned database, table and field names (which cleaning leaves unchanged),
    // so equal ids are equal identities: it keys the duplicate check without a second identity string.
    const id = stableRecordId(this.options.source.dataset, metadata)
    if (this.isRepeat(id, { rowNumber, metadata, classification, level })) return
    this.keep({ id, rowNumber, metadata, classification, level, notes })
  }

  private noteHidden(rowNumber: number): void {
    this.report.hidden_rows ??= { count: 0, rows: [] }
    this.report.hidden_rows.count++
    if (this.report.hidden_rows.rows.length < maxIssues) this.report.hidden_rows.rows.push(this.where(rowNumber))
  }

  private skipBlank(cells: readonly string[]): boolean {
    if (!cells.every((cell) => cell.trim() === '')) return false
    this.report.blank_rows++
    this.sheetReport.blank_rows++
    return true
  }

  private skipSubtotal(fieldName: string, cells: readonly string[]): boolean {
    if (!((!fieldName || subtotal.test(fieldName)) && cells.some((cell) => subtotal.test(cell.trim())))) return false
    this.report.subtotal_rows++
    this.sheetReport.subtotal_rows++
    return true
  }

  private emptyFieldName(rowNumber: number): void {
    if (this.options.skipEmptyFieldName) {
      this.report.skipped_empty_field_name.count++
      this.report.skipped_empty_field_name.rows.push(rowNumber)
    } else this.issue('empty_field_name', this.where(rowNumber, this.headers.get('field_name')), 'field_name is empty')
  }

  /** The row's table name; `undefined` (an issue) when it is mapped and blank. */
  private tableName(value: CellValue, rowNumber: number): string | undefined {
    // A merged 表名 cell holds its text in its first row only: the other rows read blank.
    const tableName = value('table_name')
    if (tableName || !this.columns.has('table_name')) return tableName
    const where = this.where(rowNumber, this.headers.get('table_name'))
    this.issue('empty_table_name', where, 'table_name is empty (a blank or merged cell): every row needs its own table name')
    return undefined
  }

  /** The row's data level by the standard's level map; `undefined` (an issue) when it is not one. */
  private dataLevel(value: CellValue, rowNumber: number): string | undefined {
    const level = this.levels.read(value('data_level'))
    if (typeof level === 'string') return level
    this.issue('unknown_level', this.where(rowNumber, this.headers.get('data_level')), level.problem)
    return undefined
  }

  /** Whether a record with this id was seen: an exact duplicate is counted, a differently labelled one is an issue. */
  private isRepeat(id: string, row: RowLabels & { metadata: FieldMetadata }): boolean {
    const previous = this.seen.get(id)
    if (previous === undefined) {
      this.seen.set(id, this.firstRows.length)
      this.firstRows.push(row.rowNumber)
      this.firstClassifications.push(row.classification)
      this.firstLevels.push(row.level)
      return false
    }
    const firstRow = this.firstRows[previous] as number
    const labels = this.firstClassifications[previous] as Classification
    const same =
      this.firstLevels[previous] === row.level && labelFields.every((field) => labels[field] === row.classification[field])
    if (same) {
      this.report.exact_duplicates.count++
      this.report.exact_duplicates.rows.push([firstRow, row.rowNumber])
    } else {
      const { database_name, table_name, field_name } = row.metadata
      this.issue(
        'conflicting_duplicate',
        this.where(row.rowNumber, this.headers.get('field_name')),
        `${database_name}.${table_name}.${field_name} is labelled differently in rows ${firstRow} and ${row.rowNumber}`,
      )
    }
    return true
  }

  /** Counts a new record in the report and hands it on (or keeps it). */
  private keep(row: RowLabels & { id: string; metadata: FieldMetadata; notes: LabelNote[] }): void {
    const { classification, level, rowNumber } = row
    const labeled = labelFields.some((field) => classification[field] !== '')
    if (labeled && level === '' && this.columns.has('data_level')) {
      this.report.labelled_without_level.count++
      if (this.report.labelled_without_level.rows.length < maxIssues)
        this.report.labelled_without_level.rows.push(this.where(rowNumber, this.headers.get('data_level')))
    }
    this.count(this.report.label_status, labeled ? 'labeled' : 'unlabeled')
    this.count(this.report.data_level, level || '<empty>')
    this.report.trailing_codes += row.notes.length
    this.recordCount++
    const { source } = this.options
    const record: ProcessedRecord = {
      id: row.id,
      key: normalizeName(row.metadata.field_name),
      label_status: labeled ? 'labeled' : 'unlabeled',
      metadata: row.metadata,
      classification,
      data_level: level,
      ...(row.notes.length > 0 ? { label_notes: row.notes } : {}),
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
