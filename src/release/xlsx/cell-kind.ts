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
