/**
 * @module envs/grading: the shape of one leaf of the synthetic steel-maker taxonomy: its standard entry
 * (code, name, path, level, texts) and the tables and fields that hold its data.
 */

/** `[name, Chinese description, English description, home database]`. */
export type DemoTable = readonly [name: string, description: string, descriptionEn: string, database: string]

/**
 * `[field name, Chinese description, English description, column type, level override?, misleading
 * description?]`. A misleading description names another category's business on purpose.
 */
export type DemoField = readonly [
  name: string,
  description: string,
  descriptionEn: string,
  type: string,
  level?: string,
  misleading?: string,
]

export interface DemoLeaf {
  /** The category id (`id_strategy: code`). */
  code: string
  name: string
  /** `[data domain, business area, sub-area]`; the leaf name is level_4. */
  path: readonly [string, string, string]
  /** The level most of its fields carry. */
  level: 'L1' | 'L2' | 'L3' | 'L4'
  /** The registry's compact summary. */
  summary: string
  /** The corpus description. */
  description: string
  /** Further corpus descriptions (English). */
  descriptions: readonly string[]
  /** Example data items of the standard entry. */
  examples: readonly string[]
  /** Relative share of fields in a typical catalogue. */
  weight: number
  tables: readonly DemoTable[]
  fields: readonly DemoField[]
}
