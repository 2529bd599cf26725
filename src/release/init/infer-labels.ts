/**
 * @module release/init: the catalogue's labels against the standard (pure): how deep they go (the leaf
 * level and path fields), which leaf labels name no leaf of the standard, and which of those look like
 * placeholders (`待定`, `TBD`, `N/A`, …) that mark a field not yet classified.
 */
import { bareName } from '../canonical/resolve-target.js'
import type { StandardField } from '../contracts/column-mapping.js'
import { stripTrailingCode } from '../preprocess/normalize-cell.js'

const placeholderWords = new Set([
  '待定',
  '未分类',
  '暂无',
  '无',
  '待补充',
  '其他',
  'tbd',
  'to be determined',
  'n/a',
  'na',
  'unknown',
  'unclassified',
  'pending',
  'none',
  'other',
  '-',
  '?',
])

export interface LabelInference {
  leaf_level: StandardField | null
  path_fields: StandardField[]
  /** Leaf labels that look like placeholders: records carrying them are counted, never trained on. */
  placeholder_labels: string[]
  /** Leaf labels that name no leaf of the standard (their records would be lost): first 20, with a count. */
  unknown_labels: { label: string; rows: number }[]
  labelled_rows: number
}

export function inferLabels(options: {
  /** The mapped category fields, top first (`level_1`…). */
  categoryFields: readonly StandardField[]
  /** Each row's labels by field. */
  rows: readonly Readonly<Record<string, string>>[]
  /** The standard's leaf names. */
  leaves: ReadonlySet<string>
}): LabelInference {
  const fields = [...options.categoryFields].sort()
  const leafField = fields.at(-1) ?? null
  // As the canonical build tries them: as written, code stripped, whitespace next to CJK ignored.
  const bare = new Set([...options.leaves].map(bareName))
  const known = (leaf: string) =>
    options.leaves.has(leaf) || options.leaves.has(stripTrailingCode(leaf)) || bare.has(bareName(stripTrailingCode(leaf)))
  const counts = new Map<string, number>()
  let labelled = 0
  for (const row of options.rows) {
    const leaf = leafField ? (row[leafField] ?? '').trim() : ''
    if (!leaf) continue
    labelled++
    if (!known(leaf)) counts.set(leaf, (counts.get(leaf) ?? 0) + 1)
  }
  const placeholders = [...counts.keys()].filter((label) => placeholderWords.has(label.toLowerCase())).sort()
  const unknown = [...counts]
    .filter(([label]) => !placeholders.includes(label))
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([label, rows]) => ({ label, rows }))
  return {
    leaf_level: leafField,
    path_fields: fields,
    placeholder_labels: placeholders,
    unknown_labels: unknown,
    labelled_rows: labelled,
  }
}
