/**
 * @module release/xlsx: a worksheet part's XML → rows of cell text, fed decoded text in any chunks (a
 * row is parsed once its `</row>` has arrived, so no chunk boundary can split a cell). Cells are the
 * text Excel shows for them, as openpyxl reads them: shared and inline strings (rich text runs joined,
 * phonetic runs left out), cached formula results, numbers, booleans, and dates as ISO text.
 */
import { type DateKind, serialText } from './cell-formats.js'
import { unescapeXml, xmlAttribute } from './xml-text.js'

/** Marks a formula cell without a cached value (XML 1.0 cannot carry U+0002, so no real cell starts so). */
export const uncachedFormula = '\u0002'

export interface SheetXmlContext {
  sharedStrings: readonly string[]
  formats: readonly (DateKind | undefined)[]
  date1904: boolean
}

export interface ParsedRow {
  rowNumber: number
  cells: string[]
}

/** "AB12" → 27 (0-based column), -1 when it has no letters. */
export function columnIndex(reference: string): number {
  let index = 0
  let at = 0
  for (; at < reference.length; at++) {
    const code = reference.charCodeAt(at)
    if (code < 65 || code > 90) break
    index = index * 26 + (code - 64)
  }
  return at === 0 ? -1 : index - 1
}

/** XML text content: line ends normalised as an XML parser does, then references resolved. */
export function xmlText(raw: string): string {
  return unescapeXml(raw.includes('\r') ? raw.replace(/\r\n?/g, '\n') : raw)
}

/** The text of an `<si>` or `<is>` body: every `<t>` outside phonetic (`<rPh>`) runs, joined. */
export function stringItemText(body: string): string {
  const plain = body.includes('<rPh') ? body.replace(/<rPh\b[\s\S]*?<\/rPh>/g, '') : body
  let text = ''
  let at = 0
  for (;;) {
    const open = plain.indexOf('<t', at)
    if (open < 0) break
    const next = plain.charCodeAt(open + 2)
    const close = plain.indexOf('>', open)
    if (close < 0) break
    if (next !== 62 && next !== 32 && next !== 47) {
      at = close + 1
      continue
    }
    if (plain.charCodeAt(close - 1) === 47) {
      at = close + 1
      continue
    }
    const end = plain.indexOf('</t>', close)
    if (end < 0) break
    text += xmlText(plain.slice(close + 1, end))
    at = end + 4
  }
  return text
}

function elementBody(xml: string, name: string): string | undefined {
  const open = xml.indexOf(`<${name}`)
  if (open < 0) return undefined
  const close = xml.indexOf('>', open)
  if (xml.charCodeAt(close - 1) === 47) return ''
  const end = xml.indexOf(`</${name}>`, close)
  return end < 0 ? undefined : xml.slice(close + 1, end)
}

function cellValue(tag: string, body: string, context: SheetXmlContext): string {
  const type = xmlAttribute(tag, 't') ?? 'n'
  if (type === 'inlineStr') return stringItemText(elementBody(body, 'is') ?? '')
  const value = elementBody(body, 'v')
  const formula = body.includes('<f')
  if (value === undefined || (value === '' && type !== 'str')) {
    if (!formula) return ''
    return `${uncachedFormula}${xmlText(elementBody(body, 'f') ?? '')}`
  }
  switch (type) {
    case 's':
      return context.sharedStrings[Number(value)] ?? ''
    case 'str':
      return xmlText(value)
    case 'b':
      return value === '1' || value === 'true' ? 'True' : 'False'
    case 'e':
      return ''
    case 'd':
      return xmlText(value)
    default: {
      const number = Number(value)
      if (!Number.isFinite(number)) return xmlText(value)
      const style = xmlAttribute(tag, 's')
      const kind = style === undefined ? undefined : context.formats[Number(style)]
      return kind ? serialText(number, kind, context.date1904) : String(number)
    }
  }
}

/**
 * Visits each complete `<name …>` element of `xml` in order: its start tag and its body (`undefined`
 * when self-closing). A tag that only starts with `name` (`<cols` for `c`) is passed over; the scan
 * stops at the first element cut off by the end of `xml`.
 */
function forEachElement(xml: string, name: string, visit: (tag: string, body: string | undefined) => void): void {
  const opening = `<${name}`
  const closing = `</${name}>`
  let at = 0
  for (;;) {
    const open = xml.indexOf(opening, at)
    if (open < 0) return
    const next = xml.charCodeAt(open + opening.length)
    const close = xml.indexOf('>', open)
    if (close < 0) return
    at = close + 1
    if (next !== 32 && next !== 62 && next !== 47) continue
    const tag = xml.slice(open, close + 1)
    if (xml.charCodeAt(close - 1) === 47) {
      visit(tag, undefined)
      continue
    }
    const end = xml.indexOf(closing, close)
    if (end < 0) return
    visit(tag, xml.slice(close + 1, end))
    at = end + closing.length
  }
}

function parseRow(tag: string, body: string, previous: number, context: SheetXmlContext): ParsedRow {
  const reference = xmlAttribute(tag, 'r')
  const rowNumber = reference === undefined ? previous + 1 : Number(reference)
  const cells: string[] = []
  forEachElement(body, 'c', (cellTag, cellBody) => {
    if (cellBody === undefined) return
    const cellReference = xmlAttribute(cellTag, 'r')
    const column = cellReference === undefined ? cells.length : columnIndex(cellReference)
    const text = cellValue(cellTag, cellBody, context)
    while (cells.length < column) cells.push('')
    cells[column < 0 ? cells.length : column] = text
  })
  return { rowNumber, cells }
}

/** Incremental parser: `push` decoded text, take the complete rows; `end` once the part is done. */
export class SheetXmlRows {
  private pending = ''
  private lastRow = 0

  constructor(private readonly context: SheetXmlContext) {}

  push(text: string): ParsedRow[] {
    this.pending += text
    const last = this.pending.lastIndexOf('</row>')
    if (last < 0) return []
    const rows = this.parse(this.pending.slice(0, last + 6))
    this.pending = this.pending.slice(last + 6)
    return rows
  }

  end(): ParsedRow[] {
    const rows = this.parse(this.pending)
    this.pending = ''
    return rows
  }

  private parse(xml: string): ParsedRow[] {
    const rows: ParsedRow[] = []
    forEachElement(xml, 'row', (tag, body) => {
      const row = parseRow(tag, body ?? '', this.lastRow, this.context)
      this.lastRow = row.rowNumber
      rows.push(row)
    })
    return rows
  }
}

/** Merged ranges ("A2:A7") of a worksheet's `<mergeCells>` text. */
export function mergeRanges(xml: string): { top: number; left: number; bottom: number; right: number }[] {
  const ranges: { top: number; left: number; bottom: number; right: number }[] = []
  for (const match of xml.matchAll(/<(?:\w+:)?mergeCell\b[^>]*>/g)) {
    const ref = xmlAttribute(match[0], 'ref')
    const [from, to = from] = (ref ?? '').split(':') as [string, string?]
    const top = Number(/\d+$/.exec(from)?.[0])
    const bottom = Number(/\d+$/.exec(to as string)?.[0])
    const left = columnIndex(from)
    const right = columnIndex(to as string)
    if (top > 0 && bottom >= top && left >= 0 && right >= left) ranges.push({ top, left, bottom, right })
  }
  return ranges
}
