/**
 * @module release/preprocess: the rows of a CSV or TSV file (encoding: `decode-csv-bytes.ts`; separator
 * `,` `;` tab or `|`, detected or given: `detect-delimiter.ts`; RFC 4180 otherwise: `"` quoted, `""` for
 * a quote, line breaks inside quotes kept, CRLF or LF, a byte-order mark ignored), as the row source the
 * preprocessor reads from a worksheet. Every cell is text. Row numbers count records, 1 being the header.
 */
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { requireInputFile } from '../../io/require-input-file.js'
import type { SheetRow, SheetRowSource } from '../xlsx/sheet-row.js'
import { type CsvEncoding, decodeCsvBytes } from './decode-csv-bytes.js'
import { type CsvDelimiter, detectDelimiter } from './detect-delimiter.js'

/** The sheet name CSV records carry in their provenance. */
const csvSheetName = 'csv'

export function parseCsv(text: string, file: string, delimiter: string = ','): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  let quoted = false
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0
  for (; at < text.length; at++) {
    const char = text[at] as string
    if (quoted) {
      if (char !== '"') cell += char
      else if (text[at + 1] === '"') {
        cell += '"'
        at++
      } else quoted = false
      continue
    }
    if (char === '"' && cell === '') quoted = true
    else if (char === delimiter) {
      row.push(cell)
      cell = ''
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[at + 1] === '\n') at++
      row.push(cell)
      rows.push(row)
      row = []
      cell = ''
    } else cell += char
  }
  if (quoted) {
    throw new InvalidInputError({
      code: 'csv_unreadable',
      path: file,
      message: `${file}: a quoted field is never closed.`,
      issues: [{ code: 'csv_unreadable', path: `${file}:row ${rows.length + 1}`, message: 'unclosed quote' }],
    })
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell)
    rows.push(row)
  }
  return rows
}

export interface CsvOptions {
  /** The file's encoding (default: UTF-8 or UTF-16, detected). */
  encoding?: CsvEncoding | undefined
  /** The field separator (default: detected). */
  delimiter?: CsvDelimiter | undefined
}

export function readCsvRows(
  path: string,
  options: CsvOptions = {},
): SheetRowSource & { encoding: CsvEncoding; delimiter: CsvDelimiter } {
  requireInputFile(path)
  const decoded = decodeCsvBytes(readFileSync(path), basename(path), options.encoding)
  const delimiter = options.delimiter ?? detectDelimiter(decoded.text, basename(path))
  const parsed = parseCsv(decoded.text, basename(path), delimiter)
  async function* rows(): AsyncGenerator<SheetRow> {
    for (const [index, cells] of parsed.entries()) {
      if (cells.every((cell) => cell === '')) continue
      yield { rowNumber: index + 1, cells, sheet: csvSheetName }
    }
  }
  return {
    rows: rows(),
    sheetName: () => csvSheetName,
    sheetNames: () => [csvSheetName],
    encoding: decoded.encoding,
    delimiter,
  }
}
