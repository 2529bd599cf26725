/**
 * @module release/canonical: the prompt key of a record, the normalised field and table names the model
 * is shown (the audit's key). Copies of a table in other databases share it: their prompts are identical,
 * so the split keeps them together and the audit counts keys that cross splits.
 */
import { normalizeKeyText } from '../../core/python/python-text.js'
import type { CanonicalRecord } from '../contracts/canonical-record.js'

/** Field ids stay below this, so `table * fieldIdSpace + field` is an exact integer for 2^27 tables. */
const fieldIdSpace = 2 ** 26

/** The separator of a key's text: `field \u001f table`. */
const promptKeySeparator = '\u001f'

/**
 * Prompt keys as numbers. Each distinct raw name is normalised once and each distinct normalised name gets
 * a small id, so a record's key is one integer: equal keys are equal numbers, and a Map keyed by them
 * neither builds nor hashes a key string per record (the split and the audit key every record).
 */
export class PromptKeys {
  private readonly rawTables = new Map<string, number>()
  private readonly rawFields = new Map<string, number>()
  private readonly tableIds = new Map<string, number>()
  private readonly fieldIds = new Map<string, number>()
  private readonly tableTexts: string[] = []
  private readonly fieldTexts: string[] = []
  /** The last raw table name and its id: records come table by table in file order. */
  private lastTable: string | undefined
  private lastTableId = 0

  private static intern(raw: string, rawIds: Map<string, number>, ids: Map<string, number>, texts: string[]): number {
    let id = rawIds.get(raw)
    if (id === undefined) {
      const text = normalizeKeyText(raw)
      id = ids.get(text)
      if (id === undefined) {
        id = texts.length
        texts.push(text)
        ids.set(text, id)
      }
      rawIds.set(raw, id)
    }
    return id
  }

  /** The record's key: equal for two records exactly when their key texts are equal. */
  of(metadata: CanonicalRecord['metadata']): number {
    if (metadata.table_name !== this.lastTable) {
      this.lastTable = metadata.table_name
      this.lastTableId = PromptKeys.intern(metadata.table_name, this.rawTables, this.tableIds, this.tableTexts)
    }
    const table = this.lastTableId
    const field = PromptKeys.intern(metadata.field_name, this.rawFields, this.fieldIds, this.fieldTexts)
    if (field >= fieldIdSpace) throw new RangeError(`more than ${fieldIdSpace} distinct field names`)
    return table * fieldIdSpace + field
  }

  /** The normalised field name of a key (empty when the name normalises to nothing). */
  field(key: number): string {
    return this.fieldTexts[key % fieldIdSpace] as string
  }

  /** The key's text, `field \u001f table` (what the audit hashes). */
  text(key: number): string {
    return `${this.field(key)}${promptKeySeparator}${this.tableTexts[Math.floor(key / fieldIdSpace)]}`
  }
}
