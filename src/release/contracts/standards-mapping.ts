/**
 * @module release/contracts: the standards' header mapping, as the catalogue has its own: which header of
 * the classification and grading sheets holds each column the build uses, `null` for a column the
 * standard does not have, and the level map (name → level code) for standards that name their levels.
 * A role left out is found by its aliases; a header named here must be in the sheet.
 */
import { z } from 'zod'
import { parseAsset } from '../../envs/grading/assets/parse-asset.js'

const header = z
  .string()
  .transform((value) => value.trim().replace(/\s+/g, ' '))
  .pipe(z.string().min(1, 'a header must be non-empty'))

const standardsMappingSchema = z.strictObject({
  classification: z
    .strictObject({
      /** The level columns, top level first. */
      levels: z.array(header).min(1).optional(),
      code: header.nullable().optional(),
      description: header.nullable().optional(),
      examples: header.nullable().optional(),
      suggested_level: header.nullable().optional(),
    })
    .default({}),
  grading: z
    .strictObject({
      level: header.optional(),
      name: header.nullable().optional(),
      description: header.nullable().optional(),
    })
    .default({}),
  level_map: z.record(z.string(), header).optional(),
})

export type StandardsMapping = z.output<typeof standardsMappingSchema>

export function parseStandardsMapping(value: unknown, source: string): StandardsMapping {
  return parseAsset(standardsMappingSchema, value, { kind: 'standards mapping', source, code: 'invalid_mapping' })
}
