/**
 * @module release/xlsx: a cell reference's column, both ways — letters to a 0-based index (the reader,
 * "AB12" → 27) and back (the writer and the preprocessor's messages, 27 → "AB"). One file so the two
 * directions cannot drift apart.
 */

/** "A", "B", …, "Z", "AA", … for a 0-based column index. */
export function columnName(index: number): string {
  let name = ''
  for (let value = index + 1; value > 0; value = Math.floor((value - 1) / 26)) {
    name = String.fromCharCode(65 + ((value - 1) % 26)) + name
  }
  return name
}

/** "AB12" → 27 (0-based column), -1 when it has no letters. */
export function columnIndex(reference: string): number {
  let index = 0
  let at = 0
  for (; at < reference.length; at++) {
    const code = reference.charCodeAt(at)
    if (code < 65 || code > 90) break
    index = index * 26 + (code - 64)
  }
  return at === 0 ? -1 : index - 1
}
