/**
 * @module release/xlsx: writes a real `.xlsx` (shared or inline strings, numbers, dates, formulas with or
 * without a cached value, merged ranges, several sheets) deterministically: the same sheets always give
 * the same bytes. Used for the demo data and test fixtures.
 */
import { writeFileSync } from 'node:fs'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { columnName } from './cell-reference.js'
import { buildZip, type ZipWriteEntry } from './zip-writer.js'

/** A formula (with its cached value as Excel saves it, or none as some generators leave it), or a date serial. */
export type XlsxSpecialCell = { formula: string; cached?: string | number } | { date: number }
export type XlsxCell = string | number | XlsxSpecialCell | null | undefined

export interface XlsxWriteOptions {
  /** `shared` (Excel's way, the default) or `inline` strings (`t="inlineStr"`, as streaming writers do). */
  strings?: 'shared' | 'inline'
}

export interface XlsxSheet {
  name: string
  rows: readonly (readonly XlsxCell[])[]
  /** Merged ranges such as "A2:A7" (their value lives in the top-left cell), as standards bodies write them. */
  merges?: readonly string[]
}

const declaration = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
const mainNamespace = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
const relationshipNamespace = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
const packageRelationships = 'http://schemas.openxmlformats.org/package/2006/relationships'
const contentType = 'application/vnd.openxmlformats-officedocument.spreadsheetml'
// biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 forbids these characters
const forbidden = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/

function escapeXml(text: string): string {
  if (forbidden.test(text)) {
    throw new InvalidInputError({
      code: 'invalid_cell_text',
      message: `Cell text ${JSON.stringify(text.slice(0, 40))} holds a character XML cannot carry.`,
      issues: [],
    })
  }
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')
}

function specialCellXml(reference: string, cell: XlsxSpecialCell): string {
  if ('date' in cell) return `<c r="${reference}" s="1"><v>${cell.date}</v></c>`
  const formula = `<f>${escapeXml(cell.formula)}</f>`
  if (cell.cached === undefined) return `<c r="${reference}">${formula}</c>`
  if (typeof cell.cached === 'number') return `<c r="${reference}">${formula}<v>${cell.cached}</v></c>`
  return `<c r="${reference}" t="str">${formula}<v>${escapeXml(cell.cached)}</v></c>`
}

function worksheetXml(
  rows: XlsxSheet['rows'],
  stringCell: (reference: string, text: string) => string,
  merges: readonly string[] = [],
): string {
  const parts: string[] = [`${declaration}<worksheet xmlns="${mainNamespace}"><sheetData>`]
  rows.forEach((row, rowIndex) => {
    const rowNumber = rowIndex + 1
    let cells = ''
    row.forEach((cell, columnIndex) => {
      if (cell === null || cell === undefined || cell === '') return
      const reference = `${columnName(columnIndex)}${rowNumber}`
      if (typeof cell === 'number') {
        if (!Number.isFinite(cell)) throw new RangeError(`cell ${reference} is not a finite number`)
        cells += `<c r="${reference}"><v>${cell}</v></c>`
      } else if (typeof cell === 'object') cells += specialCellXml(reference, cell)
      else cells += stringCell(reference, cell)
    })
    parts.push(`<row r="${rowNumber}">${cells}</row>`)
  })
  parts.push('</sheetData>')
  if (merges.length > 0)
    parts.push(`<mergeCells count="${merges.length}">${merges.map((ref) => `<mergeCell ref="${ref}"/>`).join('')}</mergeCells>`)
  parts.push('</worksheet>')
  return parts.join('')
}

export function buildXlsx(sheets: readonly XlsxSheet[], options: XlsxWriteOptions = {}): Buffer {
  if (sheets.length === 0) throw new RangeError('a workbook needs at least one sheet')
  const strings: string[] = []
  const indexes = new Map<string, number>()
  const sharedIndex = (text: string) => {
    let index = indexes.get(text)
    if (index === undefined) {
      index = strings.length
      strings.push(text)
      indexes.set(text, index)
    }
    return index
  }
  const inline = options.strings === 'inline'
  const stringCell = inline
    ? (reference: string, text: string) =>
        `<c r="${reference}" t="inlineStr"><is><t xml:space="preserve">${escapeXml(text)}</t></is></c>`
    : (reference: string, text: string) => `<c r="${reference}" t="s"><v>${sharedIndex(text)}</v></c>`
  const worksheets = sheets.map((sheet) => worksheetXml(sheet.rows, stringCell, sheet.merges))
  let references = 0
  let dates = false
  for (const sheet of sheets)
    for (const row of sheet.rows)
      for (const cell of row) {
        if (typeof cell === 'string' && cell && !inline) references++
        if (typeof cell === 'object' && cell !== null && 'date' in cell) dates = true
      }
  // A date cell needs a date format (built-in 14); workbooks without one keep their old bytes.
  const cellXfs = dates
    ? '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>'
    : '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>'
  const shared = `${declaration}<sst xmlns="${mainNamespace}" count="${references}" uniqueCount="${strings.length}">${strings
    .map((text) => `<si><t xml:space="preserve">${escapeXml(text)}</t></si>`)
    .join('')}</sst>`
  const sheetList = sheets
    .map((sheet, index) => `<sheet name="${escapeXml(sheet.name)}" sheetId="${index + 1}" r:id="rId${index + 1}"/>`)
    .join('')
  const sheetRelationships = sheets
    .map(
      (_, index) =>
        `<Relationship Id="rId${index + 1}" Type="${relationshipNamespace}/worksheet" Target="worksheets/sheet${index + 1}.xml"/>`,
    )
    .join('')
  const count = sheets.length
  const text = (name: string, body: string): ZipWriteEntry => ({ name, data: Buffer.from(body, 'utf8') })
  // sharedStrings precedes the worksheets so streaming readers resolve strings without buffering sheets.
  return buildZip([
    text(
      '[Content_Types].xml',
      `${declaration}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="${contentType}.sheet.main+xml"/><Override PartName="/xl/styles.xml" ContentType="${contentType}.styles+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="${contentType}.sharedStrings+xml"/>${sheets
        .map(
          (_, index) => `<Override PartName="/xl/worksheets/sheet${index + 1}.xml" ContentType="${contentType}.worksheet+xml"/>`,
        )
        .join('')}</Types>`,
    ),
    text(
      '_rels/.rels',
      `${declaration}<Relationships xmlns="${packageRelationships}"><Relationship Id="rId1" Type="${relationshipNamespace}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    text(
      'xl/workbook.xml',
      `${declaration}<workbook xmlns="${mainNamespace}" xmlns:r="${relationshipNamespace}"><sheets>${sheetList}</sheets></workbook>`,
    ),
    text(
      'xl/_rels/workbook.xml.rels',
      `${declaration}<Relationships xmlns="${packageRelationships}">${sheetRelationships}<Relationship Id="rId${count + 1}" Type="${relationshipNamespace}/styles" Target="styles.xml"/><Relationship Id="rId${count + 2}" Type="${relationshipNamespace}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    ),
    text(
      'xl/styles.xml',
      `${declaration}<styleSheet xmlns="${mainNamespace}"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>${cellXfs}</styleSheet>`,
    ),
    text('xl/sharedStrings.xml', shared),
    ...worksheets.map((xml, index) => text(`xl/worksheets/sheet${index + 1}.xml`, xml)),
  ])
}

export function writeXlsx(path: string, sheets: readonly XlsxSheet[], options: XlsxWriteOptions = {}): void {
  writeFileSync(path, buildXlsx(sheets, options))
}
