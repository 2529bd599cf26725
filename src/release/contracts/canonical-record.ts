/**
 * @module release/contracts: the canonical record (schema v2): a processed record plus its resolution
 * status, its target (the only label: `target.category_id`) and its split. `level_1..4` stay provenance
 * and are never a fallback label.
 */
import { z } from 'zod'
import { processedRecordSchema } from './processed-record.js'

const resolutionStatuses = [
  'resolved',
  'unlabeled',
  'placeholder',
  'missing_leaf',
  'path_mismatch',
  'code_unresolved',
  'invalid_record',
  'prompt_conflict',
] as const
export type ResolutionStatus = (typeof resolutionStatuses)[number]

export const splitNames = ['train', 'val', 'test'] as const
export type SplitName = (typeof splitNames)[number]

const canonicalTargetSchema = z.strictObject({
  leaf_level: z.string(),
  leaf_name: z.string().min(1),
  category_id: z.string().min(1),
  category_path: z.array(z.string()),
})

export const canonicalRecordSchema = processedRecordSchema.extend({
  schema_version: z.literal(2),
  resolution_status: z.enum(resolutionStatuses),
  resolution_reason: z.string().optional(),
  target: canonicalTargetSchema.optional(),
  split: z.enum(splitNames).nullable(),
  split_exclusion_reason: z.string().nullable(),
})

export type CanonicalTarget = z.output<typeof canonicalTargetSchema>
export type CanonicalRecord = z.output<typeof canonicalRecordSchema>
