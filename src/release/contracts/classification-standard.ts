/**
 * @module release/contracts: the classification standard file the audit hashes (entries with their codes,
 * names, paths and standard levels). Only its SHA-256 enters reports; its shape is still checked.
 */
import { z } from 'zod'
import { parseAsset } from '../../envs/grading/assets/parse-asset.js'

const classificationStandardSchema = z.looseObject({
  dataset: z.string().min(1),
  id_strategy: z.enum(['code', 'path']),
  standard_source: z.string(),
  entries: z
    .array(
      z.looseObject({
        standard_entry_id: z.string().min(1),
        category_id: z.string().min(1),
        name: z.string().min(1),
        path: z.array(z.string()),
        description: z.string(),
        code: z.string().nullable(),
        standard_data_level: z.string().nullable(),
      }),
    )
    .min(1),
  scoped_annotations: z.array(z.unknown()).default([]),
})

export type ClassificationStandard = z.output<typeof classificationStandardSchema>

export function parseClassificationStandard(value: unknown, source: string): ClassificationStandard {
  return parseAsset(classificationStandardSchema, value, {
    kind: 'classification standard',
    source,
    code: 'invalid_classification_standard',
  })
}
