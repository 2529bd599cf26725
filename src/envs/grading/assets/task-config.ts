/**
 * @module envs/grading: the task config: which record metadata fields a prompt shows, in which order.
 * Prompt visibility is explicit; there are no implicit fields.
 */
import { z } from 'zod'
import { assetParser } from './parse-asset.js'
import { nonEmptyText } from './trimmed-text.js'

/** The four fields of the native-v2 prompt, in canonical order. */
export const nativeMetadataFields = ['field_name', 'table_name', 'field_description', 'table_description'] as const

const taskConfigSchema = z
  .object({
    metadata_fields: z.array(nonEmptyText('metadata field names must be non-empty')).min(1, 'metadata_fields must not be empty'),
    task_name: nonEmptyText('task_name must be non-empty').default('data_classification'),
  })
  .superRefine((config, context) => {
    const seen = new Set<string>()
    config.metadata_fields.forEach((field, index) => {
      if (seen.has(field)) {
        context.addIssue({ code: 'custom', path: ['metadata_fields', index], message: `duplicate metadata field "${field}"` })
      }
      seen.add(field)
    })
  })

export type TaskConfig = z.output<typeof taskConfigSchema>

/** Validates a parsed task config JSON value. */
export const parseTaskConfig = assetParser(taskConfigSchema, 'task config', 'invalid_task_config')
