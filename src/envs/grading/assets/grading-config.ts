/**
 * @module envs/grading: the grading standard: the approved sensitivity levels (with optional aligned
 * descriptions), the record field holding the level label, and an optional level map: the names a
 * standard or a catalogue writes its levels with (`Public` → `L1`). Unknown keys are rejected.
 */
import { z } from 'zod'
import { assetParser } from './parse-asset.js'
import { nonEmptyText } from './trimmed-text.js'

const gradingConfigSchema = z
  .strictObject({
    levels: z.array(nonEmptyText('level codes must be non-empty')).min(1, 'levels must not be empty'),
    descriptions: z.array(z.string()).optional(),
    gt_field: nonEmptyText('gt_field must be non-empty').default('data_level'),
    level_map: z.record(z.string(), nonEmptyText('a level map value must be a level code')).optional(),
  })
  .superRefine((config, context) => {
    const seen = new Set<string>()
    config.levels.forEach((level, index) => {
      if (seen.has(level)) context.addIssue({ code: 'custom', path: ['levels', index], message: `duplicate level "${level}"` })
      seen.add(level)
    })
    const names = new Set<string>()
    for (const [name, level] of Object.entries(config.level_map ?? {})) {
      const folded = name.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim()
      if (!folded || names.has(folded))
        context.addIssue({ code: 'custom', path: ['level_map', name], message: `level name "${name}" is empty or repeats` })
      names.add(folded)
      if (!seen.has(level))
        context.addIssue({ code: 'custom', path: ['level_map', name], message: `"${level}" is not one of levels` })
    }
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
