/** @module chat: Python string semantics the chat templates rely on (`str.strip`, `str()` of scalars). */
import { pythonFloatRepr } from '../core/json/python-json.js'

/** Code points for which Python's `str.isspace()` is true (what `strip()` removes without arguments). */
const pythonWhitespace = new Set<number>([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005,
  0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
])

export type StripMode = 'strip' | 'lstrip' | 'rstrip'

/** Python's `text.strip(chars)` / `lstrip` / `rstrip`; `chars` null or undefined strips whitespace. */
export function pythonStrip(text: string, mode: StripMode = 'strip', chars?: string | null): string {
  const set = chars === undefined || chars === null ? pythonWhitespace : new Set(Array.from(chars, (c) => c.codePointAt(0)))
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
  // Integral numbers print as ints (JSON cannot tell 2.0 from 2), as core/json's writer does.
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : pythonFloatRepr(value)
  return value
}
