/**
 * @module release/levels: a level as people write it → its number, or the words it is written with (pure).
 * Numbered spellings: `3`, `3.0` (a spreadsheet float), `L3`, `Level 3`, `LV3`, `S3`, `Grade 3`, `三`, `三级`,
 * `第三级`, `3级`, `第3级`, `Ⅲ级`, `Level III`, full-width forms, with an annotation in brackets or after a
 * separator (`三级（敏感）`, `L3 - Confidential`). What is not numbered is a name (`Confidential`), for a
 * level map to resolve. `二等`, `L2x`, `3.5` are neither: a name that no map will hold.
 */

/** Text folded for comparing level names: NFKC, lower case, whitespace collapsed. */
export function foldLevelName(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim()
}

const chineseDigits = '一二三四五六七八九'

/** 一…九, 十, 十一…十九, 二十…九十九 → the number; undefined otherwise. */
export function chineseNumber(text: string): number | undefined {
  const match = /^([一二三四五六七八九])?(十)?([一二三四五六七八九])?$/.exec(text)
  if (!match || text === '') return undefined
  const [, tens, ten, units] = match
  if (!ten) return tens && !units ? chineseDigits.indexOf(tens) + 1 : undefined
  return (tens ? chineseDigits.indexOf(tens) + 1 : 1) * 10 + (units ? chineseDigits.indexOf(units) + 1 : 0)
}

const romanValues: Readonly<Record<string, number>> = { I: 1, V: 5, X: 10 }

/** Roman numerals I…XXXIX (NFKC has turned Ⅲ into III); undefined otherwise. */
export function romanNumber(text: string): number | undefined {
  if (!/^X{0,3}(IX|IV|V?I{0,3})$/.test(text) || text === '') return undefined
  let total = 0
  for (let index = 0; index < text.length; index++) {
    const value = romanValues[text[index] as string] as number
    const next = romanValues[text[index + 1] ?? ''] ?? 0
    total += value < next ? -value : value
  }
  return total
}

/** A level number in digits (`3`, `03`, `3.0`), Chinese or Roman numerals. */
function numeral(text: string): number | undefined {
  const digits = /^(\d{1,3})(?:\.0+)?$/.exec(text)
  if (digits) return Number(digits[1])
  return chineseNumber(text) ?? romanNumber(text)
}

const prefixes = ['LEVEL', 'GRADE', 'TIER', 'LVL', 'LV', 'L', 'S'] as const

/** One level token, spaces removed, upper-cased: `L3`, `LEVEL3`, `S3`, `三级`, `第3级`, `III级`, `3`. */
function numberedToken(token: string): number | undefined {
  const chinese = /^第?(.+?)级$/.exec(token)?.[1]
  if (chinese !== undefined) return numeral(chinese)
  for (const prefix of prefixes) {
    if (!token.startsWith(prefix) || token.length === prefix.length) continue
    const rest = token.slice(prefix.length)
    // After a Latin prefix only digits or Roman numerals: `L三` is not a level anyone writes.
    const value = /^\d/.test(rest) ? numeral(rest) : romanNumber(rest)
    if (value !== undefined) return value
  }
  return numeral(token)
}

export type LevelReading =
  | { kind: 'empty' }
  | { kind: 'number'; value: number; annotation: string }
  | { kind: 'name'; name: string; annotation: string }

/** A trailing annotation in brackets, `(…)` `[…]` `【…】` `〔…〕` (NFKC folds the full-width ones to ASCII). */
const bracketed = /^(.*?)\s*[([【〔{]([^()[\]【】〔〕{}]*)[)\]】〕}]$/

const separators = /[\s\-–—:：/|,，、]/
const leadingSeparators = /^[\s\-–—:：/|,，、]+/

/** Reads one level cell; `kind: 'name'` carries the text to look up in a level map. */
export function readLevelSpelling(raw: string): LevelReading {
  const text = raw.normalize('NFKC').replace(/\s+/g, ' ').trim()
  if (text === '') return { kind: 'empty' }
  const whole = numberedToken(text.toUpperCase().replace(/ /g, ''))
  if (whole !== undefined) return { kind: 'number', value: whole, annotation: '' }
  const inBrackets = bracketed.exec(text)
  if (inBrackets) {
    const head = (inBrackets[1] as string).trim()
    const annotation = (inBrackets[2] as string).trim()
    const value = head ? numberedToken(head.toUpperCase().replace(/ /g, '')) : undefined
    if (value !== undefined) return { kind: 'number', value, annotation }
    // `Confidential (L3)`: a name with its number in brackets.
    const inner = numberedToken(annotation.toUpperCase().replace(/ /g, ''))
    if (inner !== undefined && head) return { kind: 'number', value: inner, annotation: head }
  }
  // `L3 敏感`, `Level 3 - Confidential`, `3: internal`: a level, a separator, then words.
  for (let cut = text.length - 1; cut > 0; cut--) {
    if (!separators.test(text[cut] as string)) continue
    const value = numberedToken(text.slice(0, cut).trim().toUpperCase().replace(/ /g, ''))
    const tail = text.slice(cut + 1).replace(leadingSeparators, '')
    if (value !== undefined && tail) return { kind: 'number', value, annotation: tail }
  }
  return { kind: 'name', name: text, annotation: '' }
}
