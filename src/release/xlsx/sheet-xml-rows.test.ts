import { describe, expect, it } from 'vitest'
import { decodeExcelEscapes } from './excel-escapes.js'
import { type ParsedRow, SheetXmlRows } from './sheet-xml-rows.js'

const context = {
  file: 'book.xlsx',
  part: 'xl/worksheets/sheet1.xml',
  sharedStrings: ['zero', 'one'],
  formats: [],
  date1904: false,
}

/** Parses `xml` fed in pieces of `size` characters (every split point gets exercised). */
function rows(xml: string, size = xml.length): ParsedRow[] {
  const parser = new SheetXmlRows(context)
  const out: ParsedRow[] = []
  for (let at = 0; at < xml.length; at += size) out.push(...parser.push(xml.slice(at, at + size)))
  out.push(...parser.end())
  return out
}

const sheet = (body: string, prefix = '') =>
  `<?xml version="1.0"?><${prefix}worksheet xmlns${prefix ? `:${prefix.slice(0, -1)}` : ''}="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><${prefix}sheetData>${body}</${prefix}sheetData></${prefix}worksheet>`

describe('SheetXmlRows', () => {
  it('reads prefixed elements, single quotes, line breaks between attributes and entities', () => {
    const xml = sheet(
      `<x:row r='1'\n  hidden='1'><x:c\n r='A1'\n t='s'><x:v>1</x:v></x:c><x:c r="C1" t="inlineStr"><x:is><x:t>a &amp; b &#x4E2D;\r\nc</x:t></x:is></x:c></x:row>`,
      'x:',
    )
    for (const size of [1, 3, 7, xml.length])
      expect(rows(xml, size)).toEqual([{ rowNumber: 1, cells: ['one', '', 'a & b 中\nc'], kinds: 's s', hidden: true }])
  })

  it('types cells: numbers, booleans, errors, formulas without a cached value', () => {
    const xml = sheet(
      '<row r="2"><c r="A2"><v>1.50</v></c><c r="B2" t="b"><v>1</v></c><c r="C2" t="e"><v>#N/A</v></c><c r="D2"><f>A1*2</f></c><c r="E2" t="str"><f>A1</f><v>x_x000D_y</v></c></row>',
    )
    expect(rows(xml)).toEqual([{ rowNumber: 2, cells: ['1.5', 'True', '#N/A', '', 'x\ry'], kinds: 'nbefs' }])
  })

  it('refuses what is not well formed, and a shared-string index out of range', () => {
    expect(() => rows(sheet('<row r="1"><c r="A1"><v>1</v></row>'))).toThrow(/not well-formed/)
    expect(() => rows(sheet('<row r="1"><c r="A1"><v>1</v></c></row>').slice(0, 150))).toThrow(/not well-formed/)
    expect(() => rows(sheet('<row r="1"><c r="A1" t="s"><v>7</v></c></row>'))).toThrow(/shared string 7/)
  })
})

describe('decodeExcelEscapes', () => {
  it('decodes as Excel: _x000D_ is a CR, _x005F_ a literal underscore', () => {
    expect(decodeExcelEscapes('DESC_x000D_ X')).toBe('DESC\r X')
    expect(decodeExcelEscapes('a_x005F_x000D_b')).toBe('a_x000D_b')
    expect(decodeExcelEscapes('_x4e2d__X4E2D_ _x12_')).toBe('中_X4E2D_ _x12_')
  })
})
