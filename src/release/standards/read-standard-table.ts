/**
 * @module release/standards: one standards sheet → its table: the header is the first row (among the
 * first 30) that holds the mapped headers or names a level column; rows above it are titles; the table
 * ends at the first note row (注：…, Note:, *), and what follows is kept as notes. Cells are keyed by
 * header (whitespace runs one space, so `一级分类\nLevel 1` works with a hand-written mapping); a repeated
 * header keeps its first column and is named, for the build to refuse if it uses it.
 */
import { basename } from 'node:path'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { requireInputFile } from '../../io/require-input-file.js'
import type { StandardsMapping } from '../contracts/standards-mapping.js'
import { readXlsxRows, xlsxSheetNames } from '../xlsx/read-xlsx-rows.js'
import type { StandardRow } from './build-standards.js'
import { headerRowRule, isStandardHeader, mappedHeaders, standardHeaderKey } from './standard-columns.js'
import { levelColumnDepth, looksLike } from './standard-header-aliases.js'

export interface SheetTable {
  headers: string[]
  rows: StandardRow[]
  mergedRanges: number
  headerRow: number
  notes: { row: number; text: string }[]
  repeatedHeaders: string[]
}

/** A note under a table (注：…, 备注, Note, *, ※), or a banner: one text across every filled cell. */
const notePrefix = /^(注|备注|附注|说明|note|notes)\s*[:：\d.、]|^[*※]/i

function isNote(cells: readonly string[]): boolean {
  const filled = cells.map((cell) => cell.trim()).filter((cell) => cell !== '')
  if (filled.length === 0) return false
  return notePrefix.test(filled[0] as string) || (filled.length > 1 && filled.every((cell) => cell === filled[0]))
}

/** How much a row looks like a header: cells that look like a standards column. */
const headerLikeness = (cells: readonly string[]) =>
  cells.filter((cell) => cell.trim() && (looksLike(cell) !== undefined || levelColumnDepth(cell) > 0)).length

function noHeader(options: {
  path: string
  sheet: string
  table: 'classification' | 'grading'
  closest: { row: number; cells: string[] } | undefined
  mapping: StandardsMapping | undefined
}): InvalidInputError {
  const file = basename(options.path)
  const where = `${file}:${options.sheet}`
  const wanted = mappedHeaders(options.mapping, options.table)
  const closest = options.closest
    ? ` The closest, row ${options.closest.row}, holds: ${options.closest.cells.filter((cell) => cell.trim()).join(', ')}.`
    : ''
  const mapped =
    wanted.length > 0
      ? ` The mapping asks for: ${wanted.join(', ')}.`
      : ' Or name the headers with --mapping (release init writes one).'
  const rule = headerRowRule(options.table)
  return new InvalidInputError({
    code: 'missing_header',
    path: where,
    message: `${where}: none of the first 30 rows is a ${options.table} header row: ${rule}.${closest}${mapped}`,
    issues: [{ code: 'missing_header', path: where, message: `no ${options.table} header row in rows 1–30: ${rule}` }],
  })
}

function keyCells(table: SheetTable, cells: readonly string[]): Record<string, string> {
  const row: Record<string, string> = {}
  table.headers.forEach((header, index) => {
    if (header && !Object.hasOwn(row, header)) row[header] = (cells[index] ?? '').trim()
  })
  return row
}

export async function readStandardTable(options: {
  path: string
  sheet?: string | undefined
  table: 'classification' | 'grading'
  mapping?: StandardsMapping | undefined
}): Promise<SheetTable> {
  requireInputFile(options.path)
  const names = xlsxSheetNames(options.path)
  const source = readXlsxRows({ path: options.path, sheets: [options.sheet ?? names[0] ?? 'Sheet1'] })
  const table: SheetTable = { headers: [], rows: [], mergedRanges: 0, headerRow: 0, notes: [], repeatedHeaders: [] }
  let ended = false
  let scanned = 0
  let closest: { row: number; cells: string[]; score: number } | undefined
  for await (const { rowNumber, cells } of source.rows) {
    if (table.headerRow === 0) {
      if (isStandardHeader({ cells, table: options.table, ...(options.mapping ? { mapping: options.mapping } : {}) })) {
        table.headerRow = rowNumber
        table.headers = cells.map(standardHeaderKey)
        const seen = new Set<string>()
        for (const header of table.headers.filter(Boolean))
          if (seen.has(header)) table.repeatedHeaders.push(header)
          else seen.add(header)
      } else {
        const score = headerLikeness(cells)
        if (score > (closest?.score ?? 0)) closest = { row: rowNumber, cells: [...cells], score }
        if (++scanned >= 30) break
      }
      continue
    }
    if (!ended && isNote(cells)) ended = true
    if (ended) {
      const text = cells.find((cell) => cell.trim() !== '')?.trim()
      if (text && !table.notes.some((note) => note.text === text)) table.notes.push({ row: rowNumber, text })
      continue
    }
    table.rows.push({ row: rowNumber, cells: keyCells(table, cells) })
  }
  if (table.headerRow === 0)
    throw noHeader({ path: options.path, sheet: source.sheetName(), table: options.table, closest, mapping: options.mapping })
  table.mergedRanges = source.mergedRanges?.() ?? 0
  return table
}
