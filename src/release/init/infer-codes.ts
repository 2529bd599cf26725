/**
 * @module release/init: the code style of a classification standard (pure): all digits (and whether they
 * keep leading zeros, as `010101` does: a column that must stay text), letters and digits (`B4-1`,
 * `A.01.02`), or mixed; with the leaves that have none and the codes that repeat. Code ids need every
 * leaf coded once.
 */

export interface CodeStyle {
  column: string | null
  style: 'digits' | 'letters and digits' | 'mixed' | 'none'
  /** Distinct lengths of all-digit codes: more than one with leading zeros elsewhere hints at lost zeros. */
  digit_lengths: number[]
  leading_zeros: boolean
  missing: number
  repeated: string[]
  /** Code ids are possible: every leaf has a code, none repeats. */
  usable_as_ids: boolean
}

export function inferCodeStyle(column: string | null, codes: readonly string[]): CodeStyle {
  const present = codes.map((code) => code.trim()).filter(Boolean)
  const digits = present.filter((code) => /^\d+(?:[-.]\d+)*$/.test(code))
  const lettered = present.filter((code) => /^[A-Za-z]{1,4}[-.]?\d+(?:[-.]\d+)*$/.test(code))
  const seen = new Set<string>()
  const repeated = new Set<string>()
  for (const code of present) (seen.has(code) ? repeated : seen).add(code)
  const style =
    present.length === 0
      ? 'none'
      : digits.length === present.length
        ? 'digits'
        : lettered.length === present.length
          ? 'letters and digits'
          : 'mixed'
  return {
    column,
    style,
    digit_lengths: [...new Set(digits.map((code) => code.length))].sort((a, b) => a - b),
    leading_zeros: digits.some((code) => code.startsWith('0')),
    missing: codes.length - present.length,
    repeated: [...repeated].sort(),
    usable_as_ids: present.length > 0 && present.length === codes.length && repeated.size === 0 && style !== 'mixed',
  }
}
