/**
 * @module envs/grading: what one episode is about, read from a canonical record (`options.record`) or a
 * row of an RL release (`options.row`): the record id, its visible metadata and the two labels.
 */
import { z } from 'zod'
import { type InputIssue, InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { nonEmptyText } from './assets/trimmed-text.js'
import type { GradingTask } from './grading-task.js'

export interface GradingEpisodeSource {
  sourceId: string
  metadata: Record<string, unknown>
  groundTruth: string
  groundTruthLevel: string
}

const metadataSchema = z.record(z.string(), z.unknown())
const nonEmpty = nonEmptyText()

const recordSchema = z.looseObject({
  id: nonEmpty,
  resolution_status: z.literal('resolved').optional(),
  metadata: metadataSchema,
  target: z.looseObject({ category_id: nonEmpty }),
})

const rowSchema = z.looseObject({
  reward_model: z.looseObject({ ground_truth: nonEmpty }),
  extra_info: z.looseObject({ source_id: nonEmpty, metadata: metadataSchema, ground_truth_level: nonEmpty }),
})

const gradingResetOptionsSchema = z.strictObject({
  record: z.unknown().optional(),
  row: z.unknown().optional(),
})

function fail(message: string, issues: InputIssue[]): never {
  throw new InvalidInputError({ code: 'invalid_reset_options', message, issues })
}

function parse<T>(schema: z.ZodType<T>, value: unknown, prefix: string): T {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const issues = result.error.issues.map((issue) => ({
    code: issue.code,
    path: [prefix, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }))
  return fail(`Invalid ${prefix}: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`, issues)
}

type Plain = Record<string, unknown>

/** What zod's (loose) object and record schemas accept, narrowed to plain objects. */
function isPlain(value: unknown): value is Plain {
  if (typeof value !== 'object' || value === null) return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

function trimmed(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const text = value.trim()
  return text.length > 0 ? text : undefined
}

/**
 * The well-formed cases checked by hand, with exactly the schemas' results (every reset of a release
 * validation passes here); undefined sends anything else through the schemas for their detailed errors.
 */
export function quickEpisodeSource(options: Plain, levelField: string): GradingEpisodeSource | undefined {
  const keys = Object.keys(options)
  if (keys.length !== 1) return undefined
  if (keys[0] === 'row') {
    const row = options.row
    if (!isPlain(row) || !isPlain(row.reward_model) || !isPlain(row.extra_info)) return undefined
    const info = row.extra_info
    const sourceId = trimmed(info.source_id)
    const groundTruth = trimmed(row.reward_model.ground_truth)
    const groundTruthLevel = trimmed(info.ground_truth_level)
    if (!sourceId || !groundTruth || !groundTruthLevel || !isPlain(info.metadata)) return undefined
    return { sourceId, metadata: { ...info.metadata }, groundTruth, groundTruthLevel }
  }
  if (keys[0] === 'record') {
    const record = options.record
    if (!isPlain(record) || !isPlain(record.target) || !isPlain(record.metadata)) return undefined
    if (record.resolution_status !== undefined && record.resolution_status !== 'resolved') return undefined
    const sourceId = trimmed(record.id)
    const groundTruth = trimmed(record.target.category_id)
    const groundTruthLevel = trimmed(record[levelField])
    if (!sourceId || !groundTruth || !groundTruthLevel) return undefined
    return { sourceId, metadata: { ...record.metadata }, groundTruth, groundTruthLevel }
  }
  return undefined
}

export function schemaEpisodeSource(options: Record<string, unknown>, task: GradingTask): GradingEpisodeSource {
  const { record, row } = parse(gradingResetOptionsSchema, options, 'options')
  if ((record === undefined) === (row === undefined)) {
    fail('Reset options need exactly one of record (a canonical record) or row (an RL release row).', [
      { code: 'invalid_reset_options', path: 'options', message: 'give exactly one of record or row' },
    ])
  }
  let source: GradingEpisodeSource
  if (record !== undefined) {
    const parsed = parse(recordSchema, record, 'options.record')
    const level = parse(
      nonEmpty,
      (record as Record<string, unknown>)[task.grading.gt_field],
      `options.record.${task.grading.gt_field}`,
    )
    source = { sourceId: parsed.id, metadata: parsed.metadata, groundTruth: parsed.target.category_id, groundTruthLevel: level }
  } else {
    const parsed = parse(rowSchema, row, 'options.row')
    source = {
      sourceId: parsed.extra_info.source_id,
      metadata: parsed.extra_info.metadata,
      groundTruth: parsed.reward_model.ground_truth,
      groundTruthLevel: parsed.extra_info.ground_truth_level,
    }
  }
  return source
}

/** The episode described by reset options, checked against the task's registry and levels. */
export function episodeSourceFromOptions(options: Record<string, unknown>, task: GradingTask): GradingEpisodeSource {
  const source = quickEpisodeSource(options, task.grading.gt_field) ?? schemaEpisodeSource(options, task)
  if (!task.choices.hasCategoryId(source.groundTruth)) {
    fail(`Ground truth "${source.groundTruth}" is not in the task's leaf registry.`, [
      { code: 'unknown_category', path: 'options.ground_truth', message: `"${source.groundTruth}" is not a registry category` },
    ])
  }
  if (!task.grading.levels.includes(source.groundTruthLevel)) {
    fail(`Level "${source.groundTruthLevel}" is not an approved level (${task.grading.levels.join(', ')}).`, [
      {
        code: 'unknown_level',
        path: 'options.ground_truth_level',
        message: `"${source.groundTruthLevel}" is not an approved level`,
      },
    ])
  }
  return source
}
