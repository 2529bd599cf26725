/**
 * @module core/python: the code points whose Python `str.casefold()` differs from JavaScript's
 * `toLowerCase()` on that one character (Python 3.11.7, Unicode 14.0.0), kept as data in
 * `python-casefold-table.json` (`"U+00DF": "ss"`).
 */
import table from './python-casefold-table.json' with { type: 'json' }

export const casefoldExceptions: ReadonlyMap<number, string> = new Map(
  Object.entries(table.exceptions).map(([point, text]) => [Number.parseInt(point.slice(2), 16), text]),
)
