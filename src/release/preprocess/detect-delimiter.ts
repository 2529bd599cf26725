/**
 * @module release/preprocess: which of `,` `;` tab `|` separates a CSV's fields, from its first records
 * (quotes respected): the separator that splits most of them into the same number (≥ 2) of fields. When
 * two separators fit equally well the file is refused (`csv_delimiter`): `--delimiter` says which.
 */
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'

const csvDelimiters = [',', ';', '\t', '|'] as const
export type CsvDelimiter = (typeof csvDelimiters)[number]

const shown = (delimiter: string) => (delimiter === '\t' ? 'tab' : `"${delimiter}"`)

/** Field counts of the records in `sample` (the last, maybe cut off, left out when there are others). */
function widths(sample: string, delimiter: string): number[] {
  const counts: number[] = []
  let fields = 1
  let quoted = false
  let filled = false
  for (let at = 0; at < sample.length; at++) {
    const char = sample[at]
    if (quoted) {
      if (char === '"') {
        if (sample[at + 1] === '"') at++
        else quoted = false
      }
      continue
    }
    if (char === '"') quoted = true
    else if (char === delimiter) fields++
    else if (char === '\n' || char === '\r') {
      if (char === '\r' && sample[at + 1] === '\n') at++
      if (filled || fields > 1) counts.push(fields)
      fields = 1
      filled = false
      continue
    }
    filled = true
  }
  if (counts.length === 0 && (filled || fields > 1)) counts.push(fields)
  return counts
}

/** How well `delimiter` splits the sample: the share of records at the most common width, and that width. */
function fitOf(sample: string, delimiter: string): { share: number; width: number } {
  const counts = widths(sample, delimiter).slice(0, 200)
  const tally = new Map<number, number>()
  for (const count of counts) tally.set(count, (tally.get(count) ?? 0) + 1)
  let width = 1
  let most = 0
  for (const [count, times] of tally) if (times > most || (times === most && count > width)) [width, most] = [count, times]
  return { share: counts.length === 0 ? 0 : most / counts.length, width }
}

/** The separator of `text` (the file `file`): detected, or refused when two fit equally. */
export function detectDelimiter(text: string, file: string): CsvDelimiter {
  const sample = text.slice(0, 1 << 16)
  const fits = csvDelimiters
    .map((delimiter) => ({ delimiter, ...fitOf(sample, delimiter) }))
    .filter((candidate) => candidate.width >= 2 && candidate.share >= 0.8)
    .sort((a, b) => b.share - a.share || b.width - a.width)
  const [best, next] = fits
  if (!best) return ','
  if (next && next.share === best.share && next.width === best.width) {
    const both = `${shown(best.delimiter)} and ${shown(next.delimiter)}`
    throw new InvalidInputError({
      code: 'csv_delimiter',
      path: file,
      message: `${file}: both ${both} split every record into ${best.width} fields; say which separates them with --delimiter.`,
      issues: [{ code: 'csv_delimiter', path: file, message: `ambiguous separator: ${both}` }],
    })
  }
  return best.delimiter
}

/** `--delimiter` text → a delimiter (`tab`, `\t`, `,`, `;`, `|`). */
export function parseDelimiter(value: string): CsvDelimiter | undefined {
  const text = value === '\\t' || value.toLowerCase() === 'tab' ? '\t' : value
  return (csvDelimiters as readonly string[]).includes(text) ? (text as CsvDelimiter) : undefined
}
