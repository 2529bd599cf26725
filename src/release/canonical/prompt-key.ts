/**
 * @module release/canonical: the prompt key of a record, the normalised field and table names the model
 * is shown (the audit's key). Copies of a table in other databases share it: their prompts are identical,
 * so the split keeps them together and the audit counts keys that cross splits.
 */
import { normalizeKeyText } from '../../envs/grading/text/python-text.js'
import type { CanonicalRecord, SplitName } from '../contracts/canonical-record.js'

/**
 * Prompt keys, with normalised names cached: a table's name repeats for each of its fields, and field
 * names (id, name, create_time…) repeat across tables.
 */
export class PromptKeys {
  private readonly tables = new Map<string, string>()
  private readonly fields = new Map<string, string>()

  of(metadata: CanonicalRecord['metadata']): string {
    let table = this.tables.get(metadata.table_name)
    if (table === undefined) {
      table = normalizeKeyText(metadata.table_name)
      this.tables.set(metadata.table_name, table)
    }
    let field = this.fields.get(metadata.field_name)
    if (field === undefined) {
      field = normalizeKeyText(metadata.field_name)
      this.fields.set(metadata.field_name, field)
    }
    return `${field}\u001f${table}`
  }
}

/** How many prompt keys of split records lie in more than one split. */
export function crossSplitKeyCount(records: readonly CanonicalRecord[]): number {
  const keys = new PromptKeys()
  const splitsOf = new Map<string, SplitName | 'several'>()
  for (const record of records) {
    if (!record.split || record.resolution_status !== 'resolved') continue
    const key = keys.of(record.metadata)
    const seen = splitsOf.get(key)
    if (seen === undefined) splitsOf.set(key, record.split)
    else if (seen !== record.split) splitsOf.set(key, 'several')
  }
  let count = 0
  for (const value of splitsOf.values()) if (value === 'several') count++
  return count
}
