/**
 * @module release/preprocess: a sheet's header row against the column mapping — which column each mapped
 * field is in, which mapped headers are repeated or missing, and which headers the mapping leaves out.
 */
import type { ColumnMapping, MappedField } from '../contracts/column-mapping.js'
import { headerKey } from './find-header-row.js'

export interface HeaderMapping {
  /** Each mapped field found, in the mapping's order: its column and its header as compared. */
  found: { field: MappedField; index: number; header: string }[]
  /** Mapped headers repeated (which column is meant cannot be told) or missing, in the mapping's order. */
  problems: { code: 'duplicate_header' | 'missing_column'; header: string; message: string }[]
  /** Headers the mapping does not name, in column order. */
  unmapped: string[]
}

export function mapHeader(header: readonly string[], mapping: ColumnMapping, headerRow: number): HeaderMapping {
  // Headers compare with whitespace collapsed (a bilingual `字段名\nField Name` is `字段名 Field Name`).
  const positions = new Map<string, number>()
  const repeats = new Map<string, number>()
  header.forEach((raw, index) => {
    const text = headerKey(raw)
    if (!text) return
    if (positions.has(text)) repeats.set(text, repeats.get(text) ?? index)
    else positions.set(text, index)
  })
  const result: HeaderMapping = { found: [], problems: [], unmapped: [] }
  for (const [text, field] of mapping) {
    const key = headerKey(text)
    const index = positions.get(key)
    // A repeated header matters only when it is mapped.
    if (index !== undefined && repeats.has(key))
      result.problems.push({
        code: 'duplicate_header',
        header: key,
        message: `mapped header "${key}" appears in columns ${index + 1} and ${(repeats.get(key) as number) + 1}: rename one of them`,
      })
    if (index === undefined)
      result.problems.push({
        code: 'missing_column',
        header: key,
        message: `mapped column "${key}" (${field}) is not in the header row (row ${headerRow}); headers are: ${[...positions.keys()].join(', ')}`,
      })
    else result.found.push({ field, index, header: key })
  }
  const mapped = new Set([...mapping.keys()].map(headerKey))
  result.unmapped = [...positions.keys()].filter((text) => !mapped.has(text))
  return result
}
