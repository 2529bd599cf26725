/**
 * @module release/contracts: a processed record (preprocess output): normalized metadata, raw labels kept
 * as provenance, the level label, and where the row came from (file, hash, sheet, row number).
 */
import { z } from 'zod'

export const fieldMetadataSchema = z.looseObject({
  database_name: z.string(),
  database_description: z.string(),
  table_name: z.string(),
  table_description: z.string(),
  field_name: z.string().min(1, 'field_name must be non-empty'),
  field_description: z.string(),
  field_type: z.string(),
  value: z.string(),
})

const classificationSchema = z.looseObject({
  level_1: z.string(),
  level_2: z.string(),
  level_3: z.string(),
  level_4: z.string(),
})

const provenanceSchema = z.strictObject({
  source_file: z.string(),
  source_sha256: z.string().regex(/^[0-9a-f]{64}$/),
  sheet: z.string(),
  row: z.number().int().positive(),
})

const labelNoteSchema = z.strictObject({
  field: z.string(),
  code: z.string(),
  action: z.enum(['kept', 'stripped']),
  /** A stripped label as written, code included: the canonical build tries it first. */
  written: z.string().optional(),
})

export const processedRecordSchema = z.looseObject({
  id: z.string().min(1),
  key: z.string(),
  label_status: z.enum(['labeled', 'unlabeled']),
  metadata: fieldMetadataSchema,
  classification: classificationSchema,
  data_level: z.string(),
  label_notes: z.array(labelNoteSchema).optional(),
  provenance: provenanceSchema.optional(),
})

export type FieldMetadata = z.output<typeof fieldMetadataSchema>
export type Provenance = z.output<typeof provenanceSchema>
export type LabelNote = z.output<typeof labelNoteSchema>
export type ProcessedRecord = z.output<typeof processedRecordSchema>
