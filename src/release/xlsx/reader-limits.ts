/**
 * @module release/xlsx: the reader's guards against a workbook that would take unbounded time or memory
 * (a zip bomb, a shared-string table of millions of huge strings). Defaults fit a 1M-row catalogue with
 * room to spare (bench/xlsx-reader: a 1M-row, 12-column sheet part inflates to about 0.6 GB).
 */
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'

export interface XlsxLimits {
  /** The most bytes one part (a worksheet, the shared strings) may inflate to. */
  maxPartBytes: number
  /** The most `<si>` items in the shared-string table (held in memory: cells refer to them by index). */
  maxSharedStrings: number
}

export const defaultXlsxLimits: XlsxLimits = {
  maxPartBytes: 2 * 1024 ** 3,
  maxSharedStrings: 16 * 1024 ** 2,
}

/** Small parts (workbook, relationships, styles) are read whole: they are bounded tighter. */
export const maxSmallPartBytes = 256 * 1024 ** 2

export function partTooLarge(file: string, part: string, limit: number): InvalidInputError {
  return new InvalidInputError({
    code: 'xlsx_too_large',
    path: `${file}:${part}`,
    message: `${file}: ${part} inflates to more than ${limit.toLocaleString('en-US')} bytes (the reader's per-part limit, about 5 times a 1M-row catalogue's sheet; save a genuine workbook this large as CSV, which has none).`,
    issues: [{ code: 'xlsx_too_large', path: `${file}:${part}`, message: `inflates to more than ${limit} bytes` }],
  })
}
