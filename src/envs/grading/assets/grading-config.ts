/**
 * @module envs/grading: the grading standard: the approved sensitivity levels (with optional aligned
 * descriptions) and the record field holding the level label. Unknown keys are rejected.
 */
import { z } from 'zod'
import { assetParser } from './parse-asset.js'
import { nonEmptyText } from './trimmed-text.js'

export const gradingConfigSchema = z
  .strictObject({
    levels: z.array(nonEmptyText('level codes must be non-empty')).min(1, 'levels must not be empty'),
    descriptions: z.array(z.string()).optional(),
    gt_field: nonEmptyText('gt_field must be non-empty').default('data_level'),
  })
  .superRefine((config, context) => {
    const seen = new Set<string>()
    config.levels.forEach((level, index) => {
      if (seen.has(level)) context.addIssue({ code: 'custom', path: ['levels', index], message: `duplicate level "${level}"` })
      seen.add(level)
    })
    if (config.descriptions !== undefined && config.descriptions.length !== config.levels.length) {
      context.addIssue({
        code: 'custom',
        path: ['descriptions'],
        message: `descriptions must align with levels (${config.levels.length}), got ${config.descriptions.length}`,
      })
    }
  })

export type GradingConfig = z.output<typeof gradingConfigSchema>

/** Validates a parsed grading config JSON value. */
export const parseGradingConfig = assetParser(gradingConfigSchema, 'grading config', 'invalid_grading_config')

/** `(code, description)` pairs; a level without a description gets "". */
export function gradingRubric(config: GradingConfig): [string, string][] {
  return config.levels.map((level, index) => [level, config.descriptions?.[index] ?? ''])
}
