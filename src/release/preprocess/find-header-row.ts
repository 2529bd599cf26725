/**
 * @module release/preprocess: which of a sheet's first rows is its header: the first row that holds every
 * mapped header (rows above it are titles and group headers). When none does, the closest row and what it
 * lacks, for a message that names the row.
 */

/** Rows of a sheet searched for its header. */
const headerSearchRows = 30

export interface HeaderMatch {
  rowNumber: number
  cells: readonly string[]
  /** Mapped headers the row lacks (none: this is the header row). */
  missing: string[]
}

/** A header as compared: trimmed, each whitespace run one space (`字段名\nField Name` = `字段名 Field Name`). */
export function headerKey(text: string): string {
  return text.trim().replace(/\s+/g, ' ')
}

/** The headers of `wanted` that `cells` lacks (compared by `headerKey`). */
function missingHeaders(cells: readonly string[], wanted: Iterable<string>): string[] {
  const present = new Set(cells.map(headerKey))
  return [...wanted].filter((header) => !present.has(headerKey(header)))
}

/** Tracks the best candidate among the rows offered, the first complete one winning. */
export class HeaderFinder {
  private best: HeaderMatch | undefined
  private seen = 0

  constructor(private readonly wanted: readonly string[]) {}

  /** Offers a row; returns true when it is the header row. */
  offer(rowNumber: number, cells: readonly string[]): boolean {
    this.seen++
    const missing = missingHeaders(cells, this.wanted)
    if (!this.best || missing.length < this.best.missing.length) this.best = { rowNumber, cells, missing }
    return missing.length === 0
  }

  /** True once the search window is used up without a header. */
  get exhausted(): boolean {
    return this.seen >= headerSearchRows
  }

  /** Why the sheet has no header row, for the report and errors. */
  reason(): string {
    if (!this.best || this.best.missing.length === this.wanted.length)
      return `none of its first ${headerSearchRows} rows holds a mapped header (${this.wanted.join(', ')})`
    return `no row among its first ${headerSearchRows} holds every mapped header; the closest, row ${this.best.rowNumber}, lacks ${this.best.missing.join(', ')}`
  }

  /** The closest row, when it holds at least one mapped header. */
  get closest(): HeaderMatch | undefined {
    return this.best && this.best.missing.length < this.wanted.length ? this.best : undefined
  }
}
