/**
 * @module release/xlsx: one package part's XML through saxes, a streaming, well-formedness-checking XML
 * parser: any prefix (`<x:row>`, as the .NET Open XML SDK writes), either attribute quote, whitespace and
 * line breaks between attributes, entities and character references read as any XML reader reads them.
 * A part that is not well formed (cut off, an unclosed `<c>`, an unknown entity) is `xlsx_malformed`,
 * naming the file, the part and where in it: never fewer rows.
 */
import { basename } from 'node:path'
import { SaxesParser, type SaxesTagPlain } from 'saxes'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'

export type XmlAttributes = Readonly<Record<string, string>>

export interface XmlHandlers {
  /** A start tag: its local name (prefix dropped) and attributes (as written, prefixed names kept). */
  open(name: string, attributes: XmlAttributes, selfClosing: boolean): void
  /** An end tag (also sent for a self-closing element, after `open`). */
  close(name: string): void
  /** Character data (text and CDATA), in as many pieces as the parser sends. */
  text?(text: string): void
}

/** `x:row` → `row`. */
function localName(name: string): string {
  const colon = name.indexOf(':')
  return colon < 0 ? name : name.slice(colon + 1)
}

/** An unprefixed attribute's value (OOXML's own attributes carry no prefix). */
export function attribute(attributes: XmlAttributes, name: string): string | undefined {
  return attributes[name]
}

/** A prefixed attribute by local name, whatever the prefix (`r:id`, `ns1:id`). */
export function prefixedAttribute(attributes: XmlAttributes, local: string): string | undefined {
  for (const [name, value] of Object.entries(attributes)) {
    const colon = name.indexOf(':')
    if (colon > 0 && name.slice(colon + 1) === local) return value
  }
  return undefined
}

export function malformed(file: string, part: string, reason: string): InvalidInputError {
  const name = basename(file)
  return new InvalidInputError({
    code: 'xlsx_malformed',
    path: `${name}:${part}`,
    message: `${name} is not a readable workbook: its part ${part} is not well-formed XML (${reason}); nothing was read from it. Open the file in Excel or LibreOffice and save it again.`,
    issues: [{ code: 'xlsx_malformed', path: `${name}:${part}`, message: reason }],
  })
}

/** A streaming parser over one part: `write` decoded text in any chunks, then `end`. */
export class XmlPartParser {
  private readonly parser = new SaxesParser({ xmlns: false, position: true })

  constructor(
    private readonly file: string,
    private readonly part: string,
    handlers: XmlHandlers,
  ) {
    this.parser.on('opentag', (tag: SaxesTagPlain) => {
      handlers.open(localName(tag.name), tag.attributes as XmlAttributes, tag.isSelfClosing)
      if (tag.isSelfClosing) handlers.close(localName(tag.name))
    })
    this.parser.on('closetag', (tag: SaxesTagPlain) => {
      if (!tag.isSelfClosing) handlers.close(localName(tag.name))
    })
    const text = handlers.text
    if (text) {
      this.parser.on('text', text)
      this.parser.on('cdata', text)
    }
  }

  write(text: string): void {
    try {
      this.parser.write(text)
    } catch (error) {
      throw this.wrap(error)
    }
  }

  end(): void {
    try {
      this.parser.close()
    } catch (error) {
      throw this.wrap(error)
    }
  }

  private wrap(error: unknown): unknown {
    if (InvalidInputError.isInstance(error)) return error
    const message = error instanceof Error ? error.message : String(error)
    return malformed(this.file, this.part, message.replace(/^undefined:/, 'line ').trim())
  }
}

/** Parses a whole small part (workbook, relationships, styles) at once. */
export function parseXmlPart(file: string, part: string, text: string, handlers: XmlHandlers): void {
  const parser = new XmlPartParser(file, part, handlers)
  parser.write(text)
  parser.end()
}
