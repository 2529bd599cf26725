/**
 * @module release/xlsx: streams the rows of a workbook's worksheets as typed cells. Each part is inflated
 * as a stream, decoded by one fatal UTF-8 decoder over the whole part (a character split across chunks is
 * joined, never replaced: ExcelJS 4.4.0's streaming reader corrupts them, exceljs#2084) and parsed by a
 * streaming XML parser (saxes): a part that is not well formed is `xlsx_malformed`, never fewer rows.
 * Merged ranges are filled with their top-left value. Hidden sheets are left out unless named (the
 * source lists them); hidden rows are read and marked. Held in memory: the shared-string table (cells
 * refer to it by index), the style table, the merged ranges and one chunk of the part being read.
 */
import { closeSync, openSync } from 'node:fs'
import { basename } from 'node:path'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { parseCellFormats } from './cell-formats.js'
import { detectInputFormat } from './detect-input-format.js'
import { MergeFiller, readMerges } from './read-merges.js'
import { defaultXlsxLimits, partTooLarge, type XlsxLimits } from './reader-limits.js'
import { SharedStringsParser } from './shared-strings.js'
import type { SheetRow, SheetRowSource } from './sheet-row.js'
import { type SheetXmlContext, SheetXmlRows } from './sheet-xml-rows.js'
import { readWorkbookPackage, type WorkbookPackage, type WorkbookSheet } from './workbook-sheets.js'
import { malformed } from './xml-part-parser.js'
import { EntryTooLarge, entryChunks, entryText, withZip, type ZipDirectoryEntry, zipEntries } from './zip-entries.js'

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

/** A part's failure as a coded error naming the file and the part. */
function partError(path: string, part: string, error: unknown): InvalidInputError {
  if (InvalidInputError.isInstance(error)) return error
  if (EntryTooLarge.isInstance(error)) return partTooLarge(basename(path), part, error.limit)
  const message = (error as Error).message ?? String(error)
  if (error instanceof TypeError && /encoded data was not valid/i.test(message))
    return malformed(path, part, 'its bytes are not valid UTF-8')
  return unreadable(path, `${part}: ${message}`)
}

/** Decoded text of an entry, chunk by chunk, through one streaming decoder (invalid UTF-8 refused). */
async function* entryTextChunks(path: string, fd: number, entry: ZipDirectoryEntry, limit: number): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true })
  for await (const chunk of entryChunks(path, fd, entry, limit)) yield decoder.decode(chunk, { stream: true })
  const rest = decoder.decode()
  if (rest) yield rest
}

async function readSharedStrings(
  path: string,
  fd: number,
  part: string | undefined,
  entries: Map<string, ZipDirectoryEntry>,
  limits: XlsxLimits,
) {
  const entry = part ? entries.get(part) : undefined
  if (!part || !entry) return []
  try {
    const parser = new SharedStringsParser(basename(path), part, limits.maxSharedStrings)
    for await (const text of entryTextChunks(path, fd, entry, limits.maxPartBytes)) parser.push(text)
    return parser.end()
  } catch (error) {
    throw partError(path, part, error)
  }
}

export interface ReadXlsxOptions {
  path: string
  /** Worksheets to read, in this order (default: every visible worksheet, in tab order). */
  sheets?: readonly string[]
  limits?: Partial<XlsxLimits>
}

/** The worksheets to read: those named (hidden ones too, when named), else every visible one. */
function chooseSheets(path: string, workbook: WorkbookPackage, wanted: readonly string[] | undefined): WorkbookSheet[] {
  const names = workbook.sheets.map((sheet) => sheet.name)
  if (!wanted) return workbook.sheets.filter((sheet) => !sheet.state)
  return wanted.map((name) => {
    const sheet = workbook.sheets.find((item) => item.name === name)
    if (!sheet) throw sheetNotFound(path, name, names)
    return sheet
  })
}

/**
 * Opens `path` and returns the rows of the chosen sheets (default: every visible one, in tab order).
 * Errors surface while iterating, as `InvalidInputError`s (`xlsx_unreadable`, `xlsx_malformed`,
 * `xlsx_too_large`, `sheet_not_found`); a file that is not a workbook is refused at once.
 */
export function readXlsxRows(options: ReadXlsxOptions): SheetRowSource {
  const { path } = options
  const limits: XlsxLimits = { ...defaultXlsxLimits, ...options.limits }
  if (detectInputFormat(path) !== 'xlsx') {
    throw new InvalidInputError({
      code: 'unsupported_input',
      path,
      message: `Expected an .xlsx workbook, got ${basename(path)} (a text file: read it as CSV).`,
      issues: [{ code: 'unsupported_input', path: basename(path), message: 'not a workbook' }],
    })
  }
  const file = basename(path)
  let current = options.sheets?.[0] ?? ''
  let names: string[] = []
  let hidden: string[] = []
  let merged = 0
  async function* rows(): AsyncGenerator<SheetRow> {
    let fd: number
    try {
      fd = openSync(path, 'r')
    } catch (error) {
      throw unreadable(path, (error as Error).message)
    }
    try {
      const entries = zipEntries(fd)
      let workbook: WorkbookPackage | undefined
      try {
        workbook = readWorkbookPackage(fd, entries, path)
      } catch (error) {
        throw partError(path, 'xl/workbook.xml', error)
      }
      if (!workbook || workbook.sheets.length === 0)
        throw unreadable(path, 'no worksheet found (not an .xlsx workbook, or corrupt)')
      const styles = workbook.styles ? entries.get(workbook.styles) : undefined
      let formats: SheetXmlContext['formats'] = []
      try {
        if (styles && workbook.styles) formats = parseCellFormats(entryText(fd, styles), file, workbook.styles)
      } catch (error) {
        throw partError(path, workbook.styles ?? 'styles', error)
      }
      const sharedStrings = await readSharedStrings(path, fd, workbook.sharedStrings, entries, limits)
      names = workbook.sheets.filter((sheet) => !sheet.state).map((sheet) => sheet.name)
      const chosen = chooseSheets(path, workbook, options.sheets)
      hidden = workbook.sheets.filter((sheet) => sheet.state && !chosen.includes(sheet)).map((sheet) => sheet.name)
      for (const sheet of chosen) {
        const entry = entries.get(sheet.part)
        if (!entry) throw unreadable(path, `worksheet "${sheet.name}" has no part ${sheet.part}`)
        current = sheet.name
        const context = { file, part: sheet.part, sharedStrings, formats, date1904: workbook.date1904 }
        try {
          const merges = await readMerges(path, fd, entry, { file, part: sheet.part, limit: limits.maxPartBytes })
          merged += merges.ranges.length
          const filler = new MergeFiller(merges.ranges)
          const parser = new SheetXmlRows(context)
          const emit = (row: ReturnType<SheetXmlRows['push']>[number]): SheetRow => {
            filler.fill(row)
            return { ...row, sheet: sheet.name }
          }
          for await (const text of entryTextChunks(path, fd, entry, limits.maxPartBytes))
            for (const row of parser.push(text)) yield emit(row)
          for (const row of parser.end()) yield emit(row)
          if (parser.mergeCells !== merges.elements && !(merges.elements <= 0 && parser.mergeCells === 0))
            throw malformed(path, sheet.part, `${parser.mergeCells} <mergeCell> elements, but ${merges.elements} read ahead`)
        } catch (error) {
          throw partError(path, sheet.part, error)
        }
      }
    } finally {
      closeSync(fd)
    }
  }
  return {
    rows: rows(),
    sheetName: () => current,
    sheetNames: () => names,
    hiddenSheets: () => hidden,
    mergedRanges: () => merged,
  }
}

/** Every visible worksheet name of the workbook at `path`, in tab order. */
export function xlsxSheetNames(path: string): string[] {
  return withZip(
    path,
    (fd, entries) =>
      readWorkbookPackage(fd, entries, path)
        ?.sheets.filter((sheet) => !sheet.state)
        .map((sheet) => sheet.name) ?? [],
  )
}
