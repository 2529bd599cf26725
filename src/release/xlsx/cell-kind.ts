/**
 * @module release/xlsx: what a cell holds, beside the text it shows. Rows carry one letter per cell
 * (`kinds`) instead of any marker inside the text, so no text a user can type is mistaken for a kind.
 */

export type CellKind = 'empty' | 'text' | 'number' | 'boolean' | 'date' | 'error' | 'formula'

/** One letter per kind; `formula` is a formula cell without a cached value (its text is ""). */
export const kindLetters = {
  empty: ' ',
  text: 's',
  number: 'n',
  boolean: 'b',
  date: 'd',
  error: 'e',
  formula: 'f',
} as const satisfies Record<CellKind, string>

const byLetter = new Map<string, CellKind>(Object.entries(kindLetters).map(([kind, letter]) => [letter, kind as CellKind]))

/** The kind of cell `column` of a row (a row without kinds, e.g. CSV, holds text or nothing). */
export function cellKind(row: { cells: readonly string[]; kinds?: string }, column: number): CellKind {
  const letter = row.kinds?.[column]
  if (letter !== undefined) return byLetter.get(letter) ?? 'text'
  return (row.cells[column] ?? '') === '' ? 'empty' : 'text'
}
