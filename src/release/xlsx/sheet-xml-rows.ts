/**
 * @module release/xlsx: a worksheet part's XML → rows of typed cells, fed decoded text in any chunks
 * (a streaming XML parser: a row is handed out once its end tag has been parsed). Cells are the text
 * openpyxl reads for them, with their kind beside: shared and inline strings (rich text runs joined,
 * phonetic runs left out, Excel's `_xHHHH_` escapes decoded), cached formula results, numbers, booleans
 * (`True`/`False`), dates as ISO text, error values (`#N/A`) and formulas without a cached value ("").
 */
import { type DateKind, serialText } from './cell-formats.js'
import { kindLetters } from './cell-kind.js'
import { columnIndex } from './cell-reference.js'
import { decodeExcelEscapes } from './excel-escapes.js'
import { attribute, malformed, type XmlAttributes, XmlPartParser } from './xml-part-parser.js'

export interface SheetXmlContext {
  /** The workbook's file name and this part's name, for errors. */
  file: string
  part: string
  sharedStrings: readonly string[]
  formats: readonly (DateKind | undefined)[]
  date1904: boolean
}

export interface ParsedRow {
  rowNumber: number
  cells: string[]
  /** One `kindLetters` letter per cell. */
  kinds: string
  /** The row is hidden in Excel (`hidden="1"`). */
  hidden?: boolean
}

const isTrue = (value: string | undefined) => value === '1' || value === 'true'

interface OpenCell {
  reference: string | undefined
  type: string
  style: string | undefined
  formula: boolean
  value: string | undefined
  inline: string
}

/** Incremental parser: `push` decoded text, take the complete rows; `end` once the part is done. */
export class SheetXmlRows {
  private readonly parser: XmlPartParser
  private ready: ParsedRow[] = []
  private row: { rowNumber: number; cells: string[]; kinds: string[]; hidden: boolean } | undefined
  private cell: OpenCell | undefined
  private lastRow = 0
  private inSheetData = false
  private inValue = false
  private inInline = false
  private inPhonetic = false
  private inText = false
  /** `<mergeCell>` elements seen (checked against the ranges read ahead of the rows). */
  mergeCells = 0

  constructor(private readonly context: SheetXmlContext) {
    this.parser = new XmlPartParser(context.file, context.part, {
      open: (name, attributes) => this.open(name, attributes),
      close: (name) => this.close(name),
      text: (text) => {
        if (!this.cell) return
        if (this.inValue) this.cell.value = (this.cell.value ?? '') + text
        else if (this.inText) this.cell.inline += text
      },
    })
  }

  push(text: string): ParsedRow[] {
    this.parser.write(text)
    const rows = this.ready
    this.ready = []
    return rows
  }

  end(): ParsedRow[] {
    this.parser.end()
    const rows = this.ready
    this.ready = []
    return rows
  }

  private open(name: string, attributes: XmlAttributes): void {
    if (this.cell) {
      if (name === 'v') {
        this.inValue = true
        this.cell.value = ''
      } else if (name === 'f') this.cell.formula = true
      else if (name === 'is') this.inInline = true
      else if (name === 'rPh') this.inPhonetic = true
      else if (name === 't' && this.inInline && !this.inPhonetic) this.inText = true
      return
    }
    if (name === 'sheetData') this.inSheetData = true
    else if (name === 'mergeCell') this.mergeCells++
    if (!this.inSheetData) return
    if (name === 'row') {
      const reference = attribute(attributes, 'r')
      const rowNumber = reference === undefined ? this.lastRow + 1 : Number(reference)
      if (!Number.isInteger(rowNumber) || rowNumber < 1)
        throw malformed(this.context.file, this.context.part, `row number r="${reference}" is not a positive integer`)
      this.row = { rowNumber, cells: [], kinds: [], hidden: isTrue(attribute(attributes, 'hidden')) }
    } else if (name === 'c' && this.row) {
      this.cell = {
        reference: attribute(attributes, 'r'),
        type: attribute(attributes, 't') ?? 'n',
        style: attribute(attributes, 's'),
        formula: false,
        value: undefined,
        inline: '',
      }
    }
  }

  private close(name: string): void {
    if (this.cell) {
      if (name === 'v') this.inValue = false
      else if (name === 't') this.inText = false
      else if (name === 'rPh') this.inPhonetic = false
      else if (name === 'is') this.inInline = false
      else if (name === 'c') this.finishCell(this.cell)
      return
    }
    if (name === 'sheetData') this.inSheetData = false
    else if (name === 'row' && this.row) {
      const { rowNumber, cells, kinds, hidden } = this.row
      this.lastRow = rowNumber
      this.ready.push({ rowNumber, cells, kinds: kinds.join(''), ...(hidden ? { hidden } : {}) })
      this.row = undefined
    }
  }

  private finishCell(cell: OpenCell): void {
    this.cell = undefined
    const row = this.row as NonNullable<typeof this.row>
    const [text, kind] = this.cellValue(cell)
    const column = cell.reference === undefined ? row.cells.length : columnIndex(cell.reference)
    const at = column < 0 ? row.cells.length : column
    while (row.cells.length < at) {
      row.cells.push('')
      row.kinds.push(kindLetters.empty)
    }
    row.cells[at] = text
    row.kinds[at] = kind
  }

  private cellValue(cell: OpenCell): [string, string] {
    const { type, value } = cell
    if (type === 'inlineStr') return [decodeExcelEscapes(cell.inline), kindLetters.text]
    if (value === undefined || (value === '' && type !== 'str'))
      return cell.formula ? ['', kindLetters.formula] : ['', kindLetters.empty]
    switch (type) {
      case 's': {
        const text = this.context.sharedStrings[Number(value)]
        if (text === undefined || !/^\d+$/.test(value))
          throw malformed(
            this.context.file,
            this.context.part,
            `cell ${cell.reference ?? '?'} refers to shared string ${value}, but the workbook has ${this.context.sharedStrings.length}`,
          )
        return [text, kindLetters.text]
      }
      case 'str':
        return [decodeExcelEscapes(value), kindLetters.text]
      case 'b':
        return [isTrue(value) ? 'True' : 'False', kindLetters.boolean]
      case 'e':
        return [value, kindLetters.error]
      case 'd':
        return [value, kindLetters.date]
      default: {
        const number = Number(value)
        if (!Number.isFinite(number) || value.trim() === '') return [value, kindLetters.text]
        const kind = cell.style === undefined ? undefined : this.context.formats[Number(cell.style)]
        return kind ? [serialText(number, kind, this.context.date1904), kindLetters.date] : [String(number), kindLetters.number]
      }
    }
  }
}

/** Merged ranges ("A2:A7") from the `ref` attributes of `<mergeCell>` elements. */
export function mergeRange(ref: string): { top: number; left: number; bottom: number; right: number } | undefined {
  const [from, to = from] = ref.split(':') as [string, string?]
  const top = Number(/\d+$/.exec(from)?.[0])
  const bottom = Number(/\d+$/.exec(to as string)?.[0])
  const left = columnIndex(from)
  const right = columnIndex(to as string)
  return top > 0 && bottom >= top && left >= 0 && right >= left ? { top, left, bottom, right } : undefined
}
