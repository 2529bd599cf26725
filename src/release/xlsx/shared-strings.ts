/**
 * @module release/xlsx: the shared-string table (`xl/sharedStrings.xml`), streamed through the XML
 * parser: each `<si>`'s text is its `<t>` runs joined, phonetic (`<rPh>`) runs left out, Excel's
 * `_xHHHH_` escapes decoded. The whole table is held (cells refer to it by index, in any order); its
 * size is bounded by `maxSharedStrings` and the part's inflated size.
 */
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { decodeExcelEscapes } from './excel-escapes.js'
import { XmlPartParser } from './xml-part-parser.js'

function tooManyStrings(file: string, part: string, limit: number): InvalidInputError {
  return new InvalidInputError({
    code: 'xlsx_too_large',
    path: `${file}:${part}`,
    message: `${file}: ${part} holds more than ${limit.toLocaleString('en-US')} shared strings (the reader's limit, above a 1M-row, 10-column catalogue's; save a genuine workbook this large as CSV, which has none).`,
    issues: [{ code: 'xlsx_too_large', path: `${file}:${part}`, message: `more than ${limit} shared strings` }],
  })
}

/** Collects `<si>` texts from text pushed in chunks. */
export class SharedStringsParser {
  readonly strings: string[] = []
  private readonly parser: XmlPartParser
  private inItem = false
  private inText = false
  private inPhonetic = false
  private text = ''

  constructor(file: string, part: string, maxStrings: number) {
    this.parser = new XmlPartParser(file, part, {
      open: (name) => {
        if (name === 'si') {
          if (this.strings.length >= maxStrings) throw tooManyStrings(file, part, maxStrings)
          this.inItem = true
          this.text = ''
        } else if (name === 'rPh') this.inPhonetic = true
        else if (name === 't' && this.inItem && !this.inPhonetic) this.inText = true
      },
      close: (name) => {
        if (name === 't') this.inText = false
        else if (name === 'rPh') this.inPhonetic = false
        else if (name === 'si' && this.inItem) {
          this.strings.push(decodeExcelEscapes(this.text))
          this.text = ''
          this.inItem = false
        }
      },
      text: (text) => {
        if (this.inText) this.text += text
      },
    })
  }

  push(text: string): void {
    this.parser.write(text)
  }

  end(): string[] {
    this.parser.end()
    return this.strings
  }
}
