/**
 * @module release/preprocess: a CSV file's bytes → text. Read without being told: UTF-8 (with or
 * without a byte-order mark) and UTF-16 LE/BE (a byte-order mark, or the zero bytes every ASCII
 * character of UTF-16 carries). Any other encoding only when given (`--encoding big5`, any label
 * `TextDecoder` knows: gb18030, big5, shift_jis, windows-1252, euc-kr…): legacy encodings accept
 * almost any bytes, so a guess would publish mojibake. A file that is not valid in the encoding tried
 * is refused, naming the encodings tried and the one the chardet detector suspects, with its confidence.
 */
import chardet from 'chardet'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { decodeWindows1252 } from './windows-1252.js'

/** A `TextDecoder` label (WHATWG Encoding), lower-case. */
export type CsvEncoding = string

/** Legacy encodings people are told about in messages (any `TextDecoder` label is accepted). */
export const namedLegacyEncodings = ['gb18030', 'gbk', 'big5', 'shift_jis', 'euc-jp', 'euc-kr', 'windows-1252'] as const

/** The canonical name of an encoding label, or undefined when `TextDecoder` does not know it. */
export function encodingName(label: string): string | undefined {
  const text = label.trim().toLowerCase()
  try {
    return new TextDecoder(text === 'utf8' ? 'utf-8' : text).encoding
  } catch {
    return undefined
  }
}

function bomEncoding(bytes: Uint8Array): { encoding: CsvEncoding; skip: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', skip: 3 }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', skip: 2 }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', skip: 2 }
  return undefined
}

/** UTF-16 without a byte-order mark: most ASCII characters leave a zero byte on one side of each pair. */
function utf16Pattern(bytes: Uint8Array): CsvEncoding | undefined {
  const pairs = Math.min(bytes.length >> 1, 4096)
  if (pairs < 2) return undefined
  let evenZero = 0
  let oddZero = 0
  for (let pair = 0; pair < pairs; pair++) {
    if (bytes[2 * pair] === 0) evenZero++
    if (bytes[2 * pair + 1] === 0) oddZero++
  }
  if (oddZero > pairs * 0.3 && evenZero < pairs * 0.05) return 'utf-16le'
  if (evenZero > pairs * 0.3 && oddZero < pairs * 0.05) return 'utf-16be'
  return undefined
}

function tryDecode(bytes: Uint8Array, encoding: CsvEncoding): string | undefined {
  if (encoding === 'windows-1252') return decodeWindows1252(bytes)
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    return undefined
  }
}

export interface Suspicion {
  encoding: string
  /** chardet's confidence, 0–100. */
  confidence: number
}

/** The encodings chardet suspects (that `TextDecoder` reads and that decode the bytes), best first. */
function suspectEncodings(bytes: Uint8Array): Suspicion[] {
  const bom = bomEncoding(bytes)
  if (bom) return [{ encoding: bom.encoding, confidence: 100 }]
  const found: Suspicion[] = []
  for (const match of chardet.analyse(bytes.subarray(0, 1 << 16))) {
    const name = encodingName(match.name)
    if (name && !found.some((item) => item.encoding === name) && tryDecode(bytes, name) !== undefined)
      found.push({ encoding: name, confidence: match.confidence })
  }
  return found
}

function refused(file: string, tried: readonly string[], bytes: Uint8Array): InvalidInputError {
  const [suspected, ...others] = suspectEncodings(bytes).slice(0, 3)
  const also = others.map((item) => `${item.encoding} ${item.confidence}%`).join(', ')
  const hint = suspected
    ? `; the chardet detector suspects ${suspected.encoding} (confidence ${suspected.confidence}%${also ? `; then ${also}` : ''}): if that is right, pass --encoding ${suspected.encoding}`
    : `; no encoding the chardet detector knows fits it: pass --encoding (e.g. ${namedLegacyEncodings.join(', ')})`
  const message = `${file} is not valid ${tried.join(' or ')} (encodings tried: ${tried.join(', ')})${hint}.`
  return new InvalidInputError({
    code: 'csv_encoding',
    path: file,
    message,
    issues: [{ code: 'csv_encoding', path: file, message: `not valid ${tried.join(' or ')} (${bytes.length} bytes)${hint}` }],
  })
}

function unknownEncoding(file: string, label: string): InvalidInputError {
  return new InvalidInputError({
    code: 'csv_encoding',
    path: '--encoding',
    message: `Unknown encoding "${label}" for ${file} (any WHATWG label works, e.g. utf-8, utf-16le, ${namedLegacyEncodings.join(', ')}).`,
    issues: [{ code: 'csv_encoding', path: '--encoding', message: `unknown encoding "${label}"` }],
  })
}

/** Decodes `bytes` (the file `file`) in `encoding`, or in the Unicode encoding detected. */
export function decodeCsvBytes(bytes: Uint8Array, file: string, encoding?: CsvEncoding): { text: string; encoding: CsvEncoding } {
  const bom = bomEncoding(bytes)
  if (encoding !== undefined) {
    const name = encodingName(encoding)
    if (!name) throw unknownEncoding(file, encoding)
    const text = tryDecode(bom?.encoding === name ? bytes.subarray(bom.skip) : bytes, name)
    if (text === undefined) throw refused(file, [name], bytes)
    return { text, encoding: name }
  }
  if (bom) {
    const text = tryDecode(bytes.subarray(bom.skip), bom.encoding)
    if (text === undefined) throw refused(file, [`${bom.encoding} (its byte-order mark)`], bytes)
    return { text, encoding: bom.encoding }
  }
  const tried: string[] = []
  const utf16 = utf16Pattern(bytes)
  if (utf16) {
    const text = tryDecode(bytes, utf16)
    if (text !== undefined) return { text, encoding: utf16 }
    tried.push(utf16)
  }
  const utf8 = tryDecode(bytes, 'utf-8')
  if (utf8 !== undefined) return { text: utf8, encoding: 'utf-8' }
  tried.push('utf-8')
  throw refused(file, tried, bytes)
}
