/**
 * @module release/preprocess: cell normalisation as the original preprocessing does it: whitespace-collapsed
 * text, level aliases (1/2/3/4, LEVEL1..4, 三级 → L1..L4), column-type families, trailing classification codes
 * such as "（A1-1-3）" detected (and optionally stripped), and the normalised field key.
 */
import { collapseStrip, pythonStrip } from '../../core/python/python-text.js'
import { defaultCatalogueScheme, resolveLevel } from '../levels/level-scheme.js'

/** `re.sub(r"\s+", " ", str(value).strip())`, "" for empty cells. */
export const cleanText: (value: string) => string = collapseStrip

// A code in brackets of any kind at the end of a label: letters then digits, compact (C0101), dashed
// (B-02-01, B4-1) or dotted (A.01.02). Letters alone (`（POS）`, `（APP）`) are part of a name, not a code.
const trailingCode = /[([（【［〔{｛]\s*([A-Za-z]{1,4}[-.－．]?\d+(?:[-.－．]\d+)*)\s*[)\]）】］〕}｝]\s*$/

/** The trailing classification code of a label ("" when absent). */
export function detectTrailingCode(label: string): string {
  return trailingCode.exec(label)?.[1] ?? ''
}

export function stripTrailingCode(label: string): string {
  return pythonStrip(label.replace(trailingCode, ''))
}

/**
 * The normalised catalogue level (`L1`…`L4`, as the original preprocessing allows; `release/levels` reads
 * the spellings), "" for an empty cell, or undefined when the value is not one.
 */
export function normalizeLevel(value: string): string | undefined {
  const result = resolveLevel(value, defaultCatalogueScheme)
  return 'level' in result ? result.level : undefined
}

const typeFamilies: Readonly<Record<string, string>> = {
  varchar: 'STRING',
  varchar2: 'STRING',
  nvarchar: 'STRING',
  nvarchar2: 'STRING',
  string: 'STRING',
  char: 'STRING',
  nchar: 'STRING',
  text: 'STRING',
  clob: 'STRING',
  tinyint: 'INTEGER',
  smallint: 'INTEGER',
  mediumint: 'INTEGER',
  int: 'INTEGER',
  integer: 'INTEGER',
  bigint: 'INTEGER',
  decimal: 'DECIMAL',
  numeric: 'DECIMAL',
  number: 'DECIMAL',
  float: 'FLOAT',
  real: 'FLOAT',
  double: 'FLOAT',
  bool: 'BOOLEAN',
  boolean: 'BOOLEAN',
  datetime: 'DATETIME',
  timestamp: 'DATETIME',
  date: 'DATE',
  time: 'TIME',
  binary: 'BINARY',
  varbinary: 'BINARY',
  blob: 'BINARY',
  json: 'JSON',
}

/** `VARCHAR2(32)` → `STRING`; unknown types are kept, upper-cased. */
export function normalizeType(value: string): string {
  const text = cleanText(value).toLowerCase()
  if (!text) return ''
  const base = text.split(/[\s(]/, 1)[0] as string
  return typeFamilies[base] ?? text.toUpperCase()
}

/** The field key: lower-case, runs of anything but ASCII letters, digits and CJK become "_". */
export function normalizeName(value: string): string {
  const text = cleanText(value)
  if (/^[a-z0-9]+(?:_[a-z0-9]+)*$/.test(text)) return text
  return text
    .toLowerCase()
    .replace(/[^a-zA-Z0-9\u4e00-\u9fff]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_+|_+$/g, '')
}
