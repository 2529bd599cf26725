/**
 * @module core/python: Python's text primitives where JavaScript differs: `str.strip()` (and `lstrip`,
 * `rstrip`, with or without `chars`), `str()` of a JSON scalar, `str.casefold()` and the `\s` class of `re`
 * (which follows `str.isspace()`, so it includes U+001C–U+001F and U+0085 but not U+FEFF). Chat templates,
 * search scores and audit keys must match the original byte for byte.
 */
import { casefoldExceptions } from './python-casefold-table.js'
import { pythonFloatRepr } from './python-json.js'

/** The characters Python's `str.isspace()` accepts (Unicode 14). */
const whitespaceClass = '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000'
const whitespaceRun = new RegExp(`[${whitespaceClass}]+`, 'g')
/** The same characters as code points (all in the BMP, so one UTF-16 unit each). */
const pythonWhitespace = new Set<number>([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005,
  0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
])
// biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is a range of characters here
const asciiOnly = /^[\u0000-\u007f]*$/

export type StripMode = 'strip' | 'lstrip' | 'rstrip'

/** Python's `text.strip(chars)` / `lstrip` / `rstrip`; `chars` null or undefined strips whitespace. */
export function pythonStrip(text: string, mode: StripMode = 'strip', chars?: string | null): string {
  if (chars === undefined || chars === null) {
    // Whitespace is BMP-only: a scan of UTF-16 units from either end is exact and linear.
    let start = 0
    let end = text.length
    if (mode !== 'rstrip') while (start < end && pythonWhitespace.has(text.charCodeAt(start))) start++
    if (mode !== 'lstrip') while (end > start && pythonWhitespace.has(text.charCodeAt(end - 1))) end--
    return start === 0 && end === text.length ? text : text.slice(start, end)
  }
  const set = new Set(Array.from(chars, (c) => c.codePointAt(0)))
  const points = Array.from(text)
  let start = 0
  let end = points.length
  if (mode !== 'rstrip') while (start < end && set.has((points[start] as string).codePointAt(0) as number)) start++
  if (mode !== 'lstrip') while (end > start && set.has((points[end - 1] as string).codePointAt(0) as number)) end--
  return start === 0 && end === points.length ? text : points.slice(start, end).join('')
}

/** Python's `str(value)` for the JSON scalars a tool argument can hold (`True`, `None`, `2.5`, `1e-05`). */
export function pythonStr(value: string | number | boolean | null): string {
  if (value === null) return 'None'
  if (value === true) return 'True'
  if (value === false) return 'False'
  // Integral numbers print as ints (JSON cannot tell 2.0 from 2), as `pythonJsonDumps` does.
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : pythonFloatRepr(value)
  return value
}

/** Python's `re.sub(r"\s+", " ", value)`. */
export function collapseWhitespace(value: string): string {
  return value.replace(whitespaceRun, ' ')
}

const otherWhitespaceClass = '\\t\\n\\v\\f\\r\\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000'
/** Anything `collapseStrip` would change: edge whitespace, whitespace other than " ", or a run of spaces. */
const untidy = new RegExp(`^[${whitespaceClass}]|[${whitespaceClass}]$|[${otherWhitespaceClass}]| {2}`)

/** `re.sub(r"\s+", " ", value.strip())`; most text is already so, and is then returned after one test. */
export function collapseStrip(value: string): string {
  if (value === '' || !untidy.test(value)) return value
  return collapseWhitespace(pythonStrip(value))
}

/** Python's `re.sub(r"\s+", "", value)`. */
export function removeWhitespace(value: string): string {
  return value.replace(whitespaceRun, '')
}

/** Python's `value.casefold()`: per code point, so no context rule (final sigma) applies. */
export function pythonCasefold(value: string): string {
  if (asciiOnly.test(value)) return value.toLowerCase()
  let result = ''
  for (const character of value) {
    const exception = casefoldExceptions.get(character.codePointAt(0) as number)
    result += exception ?? character.toLowerCase()
  }
  return result
}

/** `re.sub(r"\s+", " ", unicodedata.normalize("NFKC", value).strip()).casefold()`: the tools' and audit's key text. */
export function normalizeKeyText(value: string): string {
  // ASCII is unchanged by NFKC: most names skip the Unicode normaliser.
  return pythonCasefold(collapseStrip(asciiOnly.test(value) ? value : value.normalize('NFKC')))
}

/** Length in code points, as Python's `len(str)` counts. */
export function codePointLength(value: string): number {
  let length = 0
  for (const _ of value) length++
  return length
}
