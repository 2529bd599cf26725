/**
 * @module release/xlsx: streams the rows of one worksheet with ExcelJS's streaming reader, as text
 * cells (numbers, dates, rich text and formula results turned into what pandas would print). A file that
 * is missing, not a zip, or not a workbook becomes a coded error naming the file.
 */
import { basename } from 'node:path'
import ExcelJS from 'exceljs'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { requireInputFile } from '../io/require-input-file.js'
import { workbookSheets } from './workbook-sheets.js'

export interface XlsxRow {
  /** The spreadsheet row number (1 = the header row). */
  rowNumber: number
  /** Cell texts, 0-based by column; missing cells are "". */
  cells: string[]
}

export interface XlsxRowSource {
  rows: AsyncIterable<XlsxRow>
  /** The worksheet being read (known once iteration has started). */
  sheetName(): string
}

function two(value: number): string {
  return String(value).padStart(2, '0')
}

/** A cell value as text: what `str(value)` gives after pandas reads the cell. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : ''
  if (typeof value === 'boolean') return value ? 'True' : 'False'
  if (value instanceof Date) {
    return `${value.getUTCFullYear()}-${two(value.getUTCMonth() + 1)}-${two(value.getUTCDate())} ${two(value.getUTCHours())}:${two(value.getUTCMinutes())}:${two(value.getUTCSeconds())}`
  }
  if (typeof value === 'object') {
    const record = value as { richText?: { text: string }[]; result?: unknown; text?: unknown; error?: unknown }
    if (Array.isArray(record.richText)) return record.richText.map((part) => part.text).join('')
    if ('result' in record) return cellText(record.result)
    if ('text' in record) return cellText(record.text)
    if ('error' in record) return ''
  }
  return String(value)
}

function sheetNotFound(path: string, sheet: string, names: readonly string[]): InvalidInputError {
  return new InvalidInputError({
    code: 'sheet_not_found',
    path: basename(path),
    message: `Worksheet "${sheet}" not found in ${basename(path)}; sheets: ${names.join(', ')}.`,
    issues: [{ code: 'sheet_not_found', path: `${basename(path)}:${sheet}`, message: `sheets are ${names.join(', ')}` }],
  })
}

function unreadable(path: string, reason: string): InvalidInputError {
  return new InvalidInputError({
    code: 'xlsx_unreadable',
    path: basename(path),
    message: `Cannot read ${basename(path)} as an .xlsx workbook: ${reason}`,
    issues: [{ code: 'xlsx_unreadable', path: basename(path), message: reason }],
  })
}

/**
 * Opens `path` and returns the rows of `sheet` (default: the first worksheet). Errors surface while
 * iterating, as `InvalidInputError`s with code `xlsx_unreadable` or `sheet_not_found`.
 */
export function readXlsxRows(options: { path: string; sheet?: string }): XlsxRowSource {
  const { path } = options
  requireInputFile(path)
  if (!path.toLowerCase().endsWith('.xlsx')) {
    throw new InvalidInputError({
      code: 'unsupported_input',
      path,
      message: `Expected an .xlsx workbook or a .csv file, got ${basename(path)}.`,
      issues: [{ code: 'unsupported_input', path: basename(path), message: 'only .xlsx workbooks and .csv files are read' }],
    })
  }
  let chosen = options.sheet ?? ''
  // Names and tab order from the workbook itself (the streaming reader misnames openpyxl/pandas sheets).
  const sheets = workbookSheets(path)
  const wanted = sheets && (options.sheet === undefined ? sheets[0] : sheets.find((sheet) => sheet.name === options.sheet))
  async function* rows(): AsyncGenerator<XlsxRow> {
    if (sheets && sheets.length > 0 && !wanted)
      throw sheetNotFound(
        path,
        options.sheet as string,
        sheets.map((sheet) => sheet.name),
      )
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, {
      sharedStrings: 'cache',
      hyperlinks: 'ignore',
      styles: 'ignore',
      worksheets: 'emit',
      entries: 'emit',
    })
    // The reader announces each worksheet's part number just before it yields the worksheet.
    let partNumber = ''
    ;(reader as unknown as NodeJS.EventEmitter).on('entry', (entry: { type?: string; id?: unknown }) => {
      if (entry.type === 'worksheet') partNumber = String(entry.id)
    })
    const seen: string[] = []
    let found = false
    try {
      for await (const worksheet of reader) {
        const part = `xl/worksheets/sheet${partNumber}.xml`
        const name = sheets?.find((sheet) => sheet.part === part)?.name ?? (worksheet as unknown as { name: string }).name
        seen.push(name)
        const matches = wanted ? part === wanted.part : options.sheet === undefined || name === options.sheet
        if (found || !matches) {
          for await (const _ of worksheet) {
            // another sheet: drain it so the zip stream moves on
          }
          continue
        }
        found = true
        chosen = name
        for await (const row of worksheet) {
          const values = row.values as unknown[]
          const cells: string[] = []
          for (let column = 1; column < values.length; column++) cells.push(cellText(values[column]))
          yield { rowNumber: row.number, cells }
        }
      }
    } catch (error) {
      if (error instanceof InvalidInputError) throw error
      throw unreadable(path, (error as Error).message ?? String(error))
    }
    if (!found) {
      if (seen.length === 0) throw unreadable(path, 'no worksheet found (not an .xlsx workbook, or corrupt)')
      throw sheetNotFound(path, options.sheet ?? '', seen)
    }
  }
  return { rows: rows(), sheetName: () => chosen }
}
