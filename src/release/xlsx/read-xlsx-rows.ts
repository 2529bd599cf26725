/**
 * @module release/xlsx: streams the rows of a workbook's worksheets as text cells. Our own reader: each
 * part is inflated as a stream and decoded by one streaming UTF-8 decoder over the whole part, so a
 * character split across chunks is joined, never replaced (ExcelJS 4.4.0's streaming reader decodes
 * chunks separately and corrupts them: exceljs#2084). Merged ranges are filled with their top-left value.
 * A file that is missing, not a zip, or not a workbook becomes a coded error naming the file.
 */
import { closeSync, openSync } from 'node:fs'
import { basename } from 'node:path'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { requireInputFile } from '../../io/require-input-file.js'
import { parseCellFormats } from './cell-formats.js'
import { mergeRanges, type SheetXmlContext, SheetXmlRows, stringItemText } from './sheet-xml-rows.js'
import { readWorkbookPackage, type WorkbookSheet } from './workbook-sheets.js'
import { entryChunks, entryText, withZip, type ZipEntry, zipEntries } from './zip-entries.js'

export interface XlsxRow {
  /** The spreadsheet row number (1 = the sheet's first row). */
  rowNumber: number
  /** Cell texts, 0-based by column; missing cells are "". */
  cells: string[]
  /** The worksheet the row is on. */
  sheet?: string
}

export interface XlsxRowSource {
  rows: AsyncIterable<XlsxRow>
  /** The worksheet of the latest row read (known once iteration has started). */
  sheetName(): string
  /** Every worksheet of the file in tab order (known once iteration has started; CSV: `["csv"]`). */
  sheetNames?(): string[]
  /** Merged ranges in the sheets read so far. */
  mergedRanges?(): number
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

/** Decoded text of an entry, chunk by chunk, through one streaming decoder (invalid UTF-8 refused). */
async function* entryTextChunks(path: string, fd: number, entry: ZipEntry): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true })
  for await (const chunk of entryChunks(path, fd, entry)) yield decoder.decode(chunk, { stream: true })
  const rest = decoder.decode()
  if (rest) yield rest
}

async function readSharedStrings(path: string, fd: number, entry: ZipEntry | undefined): Promise<string[]> {
  const strings: string[] = []
  if (!entry) return strings
  let pending = ''
  for await (const text of entryTextChunks(path, fd, entry)) {
    pending += text
    let at = 0
    for (;;) {
      const open = pending.indexOf('<si', at)
      if (open < 0) break
      const close = pending.indexOf('>', open)
      if (close < 0) break
      if (pending.charCodeAt(close - 1) === 47) {
        strings.push('')
        at = close + 1
        continue
      }
      const end = pending.indexOf('</si>', close)
      if (end < 0) break
      strings.push(stringItemText(pending.slice(close + 1, end)))
      at = end + 5
    }
    pending = pending.slice(at)
  }
  return strings
}

const mergeTag = Buffer.from('<mergeCells')

/** The sheet's merged ranges: a pass over its bytes that decodes only the tail from `<mergeCells`. */
async function readMerges(path: string, fd: number, entry: ZipEntry): Promise<ReturnType<typeof mergeRanges>> {
  let tail: Buffer[] | undefined
  let carry: Buffer = Buffer.alloc(0)
  for await (const chunk of entryChunks(path, fd, entry)) {
    if (tail) {
      tail.push(chunk)
      continue
    }
    const joined = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk
    const at = joined.indexOf(mergeTag)
    if (at >= 0) tail = [joined.subarray(at)]
    else carry = joined.subarray(Math.max(0, joined.length - mergeTag.length))
  }
  return tail ? mergeRanges(Buffer.concat(tail).toString('utf8')) : []
}

type MergeRange = ReturnType<typeof mergeRanges>[number]

/** Fills each merged range's cells with its top-left value as rows stream past (rows ascend). */
class MergeFiller {
  private readonly pending: MergeRange[]
  private active: { range: MergeRange; value: string }[] = []
  private next = 0

  constructor(ranges: MergeRange[]) {
    this.pending = [...ranges].sort((a, b) => a.top - b.top || a.left - b.left)
  }

  fill(rowNumber: number, cells: string[]): void {
    while (this.next < this.pending.length && (this.pending[this.next] as MergeRange).top <= rowNumber) {
      const range = this.pending[this.next++] as MergeRange
      // A range whose top row is absent from the file holds no value.
      this.active.push({ range, value: range.top === rowNumber ? (cells[range.left] ?? '') : '' })
    }
    if (this.active.length === 0) return
    this.active = this.active.filter(({ range }) => range.bottom >= rowNumber)
    for (const { range, value } of this.active) {
      if (value === '') continue
      for (let column = range.left; column <= range.right; column++) {
        while (cells.length < column) cells.push('')
        if ((cells[column] ?? '') === '') cells[column] = value
      }
    }
  }
}

export interface ReadXlsxOptions {
  path: string
  /** Worksheets to read, in this order (default: every worksheet, in tab order). */
  sheets?: readonly string[]
}

/**
 * Opens `path` and returns the rows of the chosen sheets (default: all, in tab order). Errors surface
 * while iterating, as `InvalidInputError`s with code `xlsx_unreadable` or `sheet_not_found`.
 */
export function readXlsxRows(options: ReadXlsxOptions): XlsxRowSource {
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
  let current = options.sheets?.[0] ?? ''
  let names: string[] = []
  let merged = 0
  async function* rows(): AsyncGenerator<XlsxRow> {
    let fd: number
    try {
      fd = openSync(path, 'r')
    } catch (error) {
      throw unreadable(path, (error as Error).message)
    }
    try {
      let entries: Map<string, ZipEntry>
      let workbook: ReturnType<typeof readWorkbookPackage>
      let context: SheetXmlContext
      try {
        entries = zipEntries(fd)
        workbook = readWorkbookPackage(fd, entries)
        if (!workbook || workbook.sheets.length === 0) throw new Error('no worksheet found (not an .xlsx workbook, or corrupt)')
        const styles = workbook.styles ? entries.get(workbook.styles) : undefined
        context = {
          sharedStrings: await readSharedStrings(
            path,
            fd,
            workbook.sharedStrings ? entries.get(workbook.sharedStrings) : undefined,
          ),
          formats: styles ? parseCellFormats(entryText(fd, styles)) : [],
          date1904: workbook.date1904,
        }
      } catch (error) {
        throw unreadable(path, (error as Error).message ?? String(error))
      }
      names = workbook.sheets.map((sheet) => sheet.name)
      const chosen: WorkbookSheet[] = []
      for (const name of options.sheets ?? names) {
        const sheet = workbook.sheets.find((item) => item.name === name)
        if (!sheet) throw sheetNotFound(path, name, names)
        chosen.push(sheet)
      }
      for (const sheet of chosen) {
        const entry = entries.get(sheet.part)
        if (!entry) throw unreadable(path, `worksheet "${sheet.name}" has no part ${sheet.part}`)
        current = sheet.name
        try {
          const ranges = await readMerges(path, fd, entry)
          merged += ranges.length
          const filler = new MergeFiller(ranges)
          const parser = new SheetXmlRows(context)
          for await (const text of entryTextChunks(path, fd, entry))
            for (const row of parser.push(text)) {
              filler.fill(row.rowNumber, row.cells)
              yield { ...row, sheet: sheet.name }
            }
          for (const row of parser.end()) {
            filler.fill(row.rowNumber, row.cells)
            yield { ...row, sheet: sheet.name }
          }
        } catch (error) {
          if (error instanceof InvalidInputError) throw error
          throw unreadable(path, `worksheet "${sheet.name}": ${(error as Error).message ?? String(error)}`)
        }
      }
    } finally {
      closeSync(fd)
    }
  }
  return { rows: rows(), sheetName: () => current, sheetNames: () => names, mergedRanges: () => merged }
}

/** Every worksheet name of the workbook at `path`, in tab order. */
export function xlsxSheetNames(path: string): string[] {
  return withZip(path, (fd, entries) => readWorkbookPackage(fd, entries)?.sheets.map((sheet) => sheet.name) ?? [])
}
