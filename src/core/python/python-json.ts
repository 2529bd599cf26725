/**
 * @module core/python: serialisers byte-compatible with Python's `json.dumps`.
 *
 * JS cannot tell `1.0` from `1`, so numbers serialise as ints when integral; wrap a value
 * in `PythonFloat` where Python would hold a float (`0.0`, `1.0`).
 */

/** Marks a number that Python holds as a float, so it prints as `1.0`, `1e-05`, `NaN`. */
export class PythonFloat {
  constructor(readonly value: number) {}
  toJSON(): number {
    return this.value
  }
}

export interface PythonJsonOptions {
  /** `indent=` of json.dumps; undefined gives one line. */
  indent?: number
  /** `separators=`; default `(', ', ': ')` without indent and `(',', ': ')` with it. */
  separators?: readonly [string, string]
  /** `ensure_ascii=` (Python's default is true). */
  ensureAscii?: boolean
  /** `sort_keys=`. */
  sortKeys?: boolean
}

/** Python float `repr`: shortest round-trip digits, fixed notation for 1e-4 <= |x| < 1e16. */
export function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return 'NaN'
  if (value === Number.POSITIVE_INFINITY) return 'Infinity'
  if (value === Number.NEGATIVE_INFINITY) return '-Infinity'
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0'
  const [mantissa = '', exponentText = '0'] = value.toExponential().split('e')
  const exponent = Number(exponentText)
  const negative = mantissa.startsWith('-')
  const digits = mantissa.replace('-', '').replace('.', '')
  const sign = negative ? '-' : ''
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`
    const integerPart = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0')
    const fraction = digits.slice(exponent + 1)
    return `${sign}${integerPart}.${fraction || '0'}`
  }
  const fraction = digits.length > 1 ? `.${digits.slice(1)}` : ''
  const exponentSign = exponent < 0 ? '-' : '+'
  return `${sign}${digits[0]}${fraction}e${exponentSign}${String(Math.abs(exponent)).padStart(2, '0')}`
}

const nonAscii = /[\u007f-\uffff]/g
// Characters that force the slow path of a string literal: quote, backslash, controls, and (when
// escaping to ASCII) anything past 0x7e.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const needsEscapeAscii = /["\\\u0000-\u001f\u007f-\uffff]/
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const needsEscapeUnicode = /["\\\u0000-\u001f]/

function escapeNonAscii(text: string): string {
  return text.replace(nonAscii, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** A JSON string literal as Python writes it. */
export function pythonJsonString(text: string, ensureAscii = true): string {
  if (!(ensureAscii ? needsEscapeAscii : needsEscapeUnicode).test(text)) return `"${text}"`
  const quoted = JSON.stringify(text)
  return ensureAscii ? escapeNonAscii(quoted) : quoted
}

function compareCodePoints(left: string, right: string): number {
  const a = [...left]
  const b = [...right]
  for (let index = 0; index < Math.min(a.length, b.length); index++) {
    const difference = (a[index] as string).codePointAt(0)! - (b[index] as string).codePointAt(0)!
    if (difference !== 0) return difference
  }
  return a.length - b.length
}

function formatNumber(value: number): string {
  if (Number.isInteger(value)) return Object.is(value, -0) ? '0' : String(value)
  return pythonFloatRepr(value)
}

/** `json.dumps(value, ...)` for JSON-like data (objects, arrays, strings, numbers, booleans, null). */
export function pythonJsonDumps(value: unknown, options: PythonJsonOptions = {}): string {
  const indent = options.indent
  const ensureAscii = options.ensureAscii ?? true
  const [itemSeparator, keySeparator] = options.separators ?? (indent === undefined ? [', ', ': '] : [',', ': '])
  const sortKeys = options.sortKeys ?? false
  // newlines[d] = separator + newline + indentation for depth d (cached: rebuilt strings dominated the profile).
  const openers: string[] = []
  const opener = (depth: number): string => {
    let text = openers[depth]
    if (text === undefined) {
      text = indent === undefined ? '' : `\n${' '.repeat(indent * depth)}`
      openers[depth] = text
    }
    return text
  }

  const write = (item: unknown, depth: number): string => {
    switch (typeof item) {
      case 'string':
        return pythonJsonString(item, ensureAscii)
      case 'number':
        return formatNumber(item)
      case 'boolean':
        return item ? 'true' : 'false'
      case 'bigint':
        return item.toString()
      case 'undefined':
        return 'null'
      case 'object':
        break
      default:
        throw new TypeError(`Object of type ${typeof item} is not JSON serializable`)
    }
    if (item === null) return 'null'
    if (item instanceof PythonFloat) return pythonFloatRepr(item.value)
    const inner = opener(depth + 1)
    const outer = opener(depth)
    if (Array.isArray(item)) {
      if (item.length === 0) return '[]'
      let text = `[${inner}${write(item[0], depth + 1)}`
      for (let index = 1; index < item.length; index++) text += `${itemSeparator}${inner}${write(item[index], depth + 1)}`
      return `${text}${outer}]`
    }
    const record = item as Record<string, unknown>
    let keys = Object.keys(record)
    if (sortKeys) keys = keys.sort(compareCodePoints)
    let text = ''
    for (const key of keys) {
      const element = record[key]
      if (element === undefined) continue
      text += `${text === '' ? '' : itemSeparator}${inner}${pythonJsonString(key, ensureAscii)}${keySeparator}${write(element, depth + 1)}`
    }
    return text === '' ? '{}' : `{${text}${outer}}`
  }
  return write(value, 0)
}

/** `json.dumps(x)`: separators `", "` and `": "`, ASCII-escaped. */
export function pythonDumps(value: unknown): string {
  return pythonJsonDumps(value)
}

/** `json.dumps(x, ensure_ascii=False)`: the spacing the grading tools use for results. */
export function pythonDumpsUnicode(value: unknown): string {
  return pythonJsonDumps(value, { ensureAscii: false })
}

/**
 * True when `value` holds only plain objects, arrays, strings, safe integers, booleans and null: then
 * `JSON.stringify` writes what Python's compact `json.dumps(value, ensure_ascii=False)` writes (both escape
 * the same characters the same way), unless a string holds a lone surrogate (see `loneSurrogateEscape`).
 */
function plainJson(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true
    case 'number':
      return Number.isSafeInteger(value)
    case 'object': {
      if (value === null) return true
      if (depth > 16) return false
      if (Array.isArray(value)) {
        for (const item of value) if (!plainJson(item, depth + 1)) return false
        return true
      }
      const prototype = Object.getPrototypeOf(value)
      if (prototype !== Object.prototype && prototype !== null) return false
      for (const key in value) if (!plainJson((value as Record<string, unknown>)[key], depth + 1)) return false
      return true
    }
    default:
      return false
  }
}

/**
 * `JSON.stringify` escapes a lone surrogate as `\udXXX`, where Python writes it raw: output holding such an
 * escape goes to the general writer (so does an escaped backslash before "ud8…", harmlessly).
 */
export const loneSurrogateEscape = /\\u[dD][89a-fA-F]/

/** `json.dumps(x, separators=(",", ":"), ensure_ascii=False)`: compact, for prompts. */
export function pythonDumpsCompact(value: unknown, ensureAscii = false): string {
  if (!ensureAscii && plainJson(value, 0)) {
    const text = JSON.stringify(value)
    if (!loneSurrogateEscape.test(text)) return text
  }
  return pythonJsonDumps(value, { separators: [',', ':'], ensureAscii })
}

/** `json.dumps(x, indent=2)`. */
export function pythonDumpsIndent2(value: unknown, ensureAscii = true): string {
  return pythonJsonDumps(value, { indent: 2, ensureAscii })
}
