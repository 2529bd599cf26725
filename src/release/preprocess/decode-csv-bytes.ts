/**
 * @module release/preprocess: a CSV file's bytes → text, in the encoding it declares (a byte-order mark:
 * UTF-8, UTF-16 LE/BE) or, without one, UTF-8 when the bytes are valid UTF-8, else GB18030 (which
 * covers GBK and GB2312: Excel's "CSV" on a Chinese Windows). `--encoding` forces one. Bytes not valid in
 * the encoding tried are refused, naming it and the encoding the bytes look like; nothing is replaced.
 */
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'

/** The encodings a CSV may be read in (WHATWG labels; `gbk` reads as GB18030, its superset). */
export const csvEncodings = ['utf-8', 'utf-16le', 'utf-16be', 'gb18030', 'gbk'] as const
export type CsvEncoding = (typeof csvEncodings)[number]

function bomEncoding(bytes: Uint8Array): { encoding: CsvEncoding; skip: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', skip: 3 }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', skip: 2 }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', skip: 2 }
  return undefined
}

function tryDecode(bytes: Uint8Array, encoding: CsvEncoding): string | undefined {
  try {
    return new TextDecoder(encoding === 'gbk' ? 'gb18030' : encoding, { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    return undefined
  }
}

/** The encoding the bytes look like (for messages): a BOM's, else the first that decodes them. */
export function suspectEncoding(bytes: Uint8Array): CsvEncoding | undefined {
  const bom = bomEncoding(bytes)
  if (bom) return bom.encoding
  for (const encoding of ['utf-8', 'gb18030'] as const) if (tryDecode(bytes, encoding) !== undefined) return encoding
  return undefined
}

function refused(file: string, tried: string, suspected: CsvEncoding | undefined, bytes: Uint8Array): InvalidInputError {
  const hint = suspected ? `; it looks like ${suspected} (pass --encoding ${suspected})` : '; no encoding we read fits it'
  return new InvalidInputError({
    code: 'csv_encoding',
    path: file,
    message: `${file} is not valid ${tried}${hint}.`,
    issues: [{ code: 'csv_encoding', path: file, message: `not valid ${tried} (${bytes.length} bytes)${hint}` }],
  })
}

/** Decodes `bytes` (the file `file`), detecting the encoding unless `encoding` is given. */
export function decodeCsvBytes(bytes: Uint8Array, file: string, encoding?: CsvEncoding): { text: string; encoding: CsvEncoding } {
  const bom = bomEncoding(bytes)
  if (encoding !== undefined) {
    const body =
      bom && (bom.encoding === encoding || (bom.encoding === 'utf-8' && encoding === 'utf-8')) ? bytes.subarray(bom.skip) : bytes
    const text = tryDecode(body, encoding)
    if (text === undefined) throw refused(file, encoding, suspectEncoding(bytes), bytes)
    return { text, encoding }
  }
  if (bom) {
    const text = tryDecode(bytes.subarray(bom.skip), bom.encoding)
    if (text === undefined) throw refused(file, `${bom.encoding} (its byte-order mark)`, undefined, bytes)
    return { text, encoding: bom.encoding }
  }
  const utf8 = tryDecode(bytes, 'utf-8')
  if (utf8 !== undefined) return { text: utf8, encoding: 'utf-8' }
  const gb = tryDecode(bytes, 'gb18030')
  if (gb !== undefined) return { text: gb, encoding: 'gb18030' }
  throw refused(file, 'utf-8 or gb18030', undefined, bytes)
}
