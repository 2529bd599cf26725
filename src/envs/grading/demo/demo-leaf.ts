/**
 * @module envs/grading: the shape of one leaf of the synthetic steel-maker taxonomy: its standard entry
 * (code, name, path, level, texts) and the tables and fields that hold its data. The leaves themselves
 * are data (`demo-leaves-*.json`), checked against this schema when they load.
 */
import { z } from 'zod'

const text = z.string().min(1)

/** `[name, Chinese description, English description, home database]`. */
const demoTableSchema = z.tuple([text, text, text, text])
export type DemoTable = z.infer<typeof demoTableSchema>

/**
 * `[field name, Chinese description, English description, column type, level override?, misleading
 * description?]` (JSON writes a skipped level as null). A misleading description names another
 * category's business on purpose.
 */
const demoFieldSchema = z.tuple([text, text, text, text, z.enum(['L1', 'L2', 'L3', 'L4']).nullable().optional(), text.optional()])
export type DemoField = z.infer<typeof demoFieldSchema>

export const demoLeafSchema = z.strictObject({
  /** The category id (`id_strategy: code`). */
  code: text,
  name: text,
  /** `[data domain, business area, sub-area]`; the leaf name is level_4. */
  path: z.tuple([text, text, text]),
  /** The level most of its fields carry. */
  level: z.enum(['L1', 'L2', 'L3', 'L4']),
  /** The registry's compact summary. */
  summary: text,
  /** The corpus description. */
  description: text,
  /** Further corpus descriptions (English). */
  descriptions: z.array(text),
  /** Example data items of the standard entry. */
  examples: z.array(text),
  /** Relative share of fields in a typical catalogue. */
  weight: z.number().positive(),
  tables: z.array(demoTableSchema).min(1),
  fields: z.array(demoFieldSchema).min(1),
})
export type DemoLeaf = z.infer<typeof demoLeafSchema>
