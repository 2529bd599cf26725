/**
 * @module envs/grading: Python's text primitives where JavaScript differs: `str.casefold()`, `str.strip()`
 * and the `\s` class of `re` (which follows `str.isspace()`, so it includes U+001C–U+001F and U+0085 but
 * not U+FEFF). Search scores and audit keys must match the original byte for byte.
 */
import { casefoldExceptions } from './python-casefold-table.js'

/** The characters Python's `str.isspace()` accepts (Unicode 14). */
const whitespaceClass = '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000'
const whitespaceRun = new RegExp(`[${whitespaceClass}]+`, 'g')
const leadingWhitespace = new RegExp(`^[${whitespaceClass}]+`)
const trailingWhitespace = new RegExp(`[${whitespaceClass}]+$`)
// biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is a range of characters here
const asciiOnly = /^[\u0000-\u007f]*$/

/** Python's `value.strip()`. */
export function pythonStrip(value: string): string {
  return value.replace(leadingWhitespace, '').replace(trailingWhitespace, '')
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
