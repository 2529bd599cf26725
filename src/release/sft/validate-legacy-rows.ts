/**
 * @module release/sft: checks legacy SFT rows read back from Parquet (pure): exactly [system, user,
 * assistant], no chat-template tokens, prompts rebuilt byte for byte, the assistant answer decoded back to
 * the ground truth (stage 1: the five candidates; stage 2: answer and level), candidates in their
 * source-seeded order, and one stage-1 plus one stage-2 row per source sharing labels and candidates.
 */

import type { InputIssue } from '../../core/errors/invalid-input-error.js'
import { parseStrictJson } from '../../core/python/strict-json.js'
import type { GradingTask } from '../../envs/grading/grading-task.js'
import type { LegacyPromptBuilder } from '../../envs/grading/legacy/legacy-prompts.js'

const templateTokens = ['<|im_start|>', '<|im_end|>']

export interface RowCheckContext {
  task: GradingTask
  builder: LegacyPromptBuilder
  fields: readonly string[]
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const answerIssue = (message: string): InputIssue => ({ code: 'sft_answer', path: 'messages[2].content', message })

function decodeAssistant(stage: string, content: string, row: Record<string, unknown>, context: RowCheckContext): InputIssue[] {
  const parsed = parseStrictJson(content)
  if (!parsed.ok || !isObject(parsed.value)) return [answerIssue(`${stage} answer is not one JSON object`)]
  const value = parsed.value
  const candidates = row.candidates as string[]
  if (stage === 'stage1') {
    const ids = value.candidates
    if (Object.keys(value).length !== 1 || !Array.isArray(ids) || ids.length !== 5 || new Set(ids).size !== 5) {
      return [answerIssue('stage1 answer must be {"candidates": [five unique choice ids]}')]
    }
    const decoded = ids.map((id) => (typeof id === 'string' ? context.builder.categoryOfChoice(id) : undefined))
    if (decoded.some((id) => id === undefined)) return [answerIssue('stage1 answer holds an unknown choice id')]
    return decoded.join('\0') === candidates.join('\0')
      ? []
      : [answerIssue('stage1 answer does not decode to the five candidates')]
  }
  const keys = Object.keys(value).sort().join(',')
  if (keys !== 'answer,level' || typeof value.answer !== 'string' || typeof value.level !== 'string')
    return [answerIssue('stage2 answer must be {"answer", "level"}')]
  const position = ['1', '2', '3', '4', '5'].indexOf(value.answer)
  const errors: InputIssue[] = []
  if (position < 0 || candidates[position] !== row.ground_truth)
    errors.push(answerIssue('stage2 answer does not decode to ground_truth'))
  if (value.level !== row.ground_truth_level) errors.push(answerIssue('stage2 level is not ground_truth_level'))
  if (!context.task.grading.levels.includes(value.level)) errors.push(answerIssue('stage2 level is not an approved level'))
  return errors
}

/** Problems of one row as coded issues (empty when it is valid). */
export function checkLegacyRow(row: Record<string, unknown>, context: RowCheckContext): InputIssue[] {
  const errors: InputIssue[] = []
  const messages = row.messages
  if (!Array.isArray(messages) || messages.length !== 3)
    return [{ code: 'sft_messages', path: 'messages', message: 'messages must be exactly [system, user, assistant]' }]
  const roles = messages.map((message) => (isObject(message) ? message.role : undefined))
  if (roles.join(',') !== 'system,user,assistant')
    errors.push({
      code: 'sft_messages',
      path: 'messages',
      message: `message roles are ${JSON.stringify(roles)}, not system, user, assistant`,
    })
  const contents = messages.map((message) => (isObject(message) ? message.content : undefined))
  if (!contents.every((content): content is string => typeof content === 'string'))
    return [...errors, { code: 'sft_messages', path: 'messages', message: 'every message content must be a string' }]
  if (contents.some((content) => templateTokens.some((token) => content.includes(token))))
    errors.push({ code: 'sft_template_tokens', path: 'messages', message: 'messages contain serialized chat-template tokens' })
  const stage = row.stage
  if (stage !== 'stage1' && stage !== 'stage2')
    return [...errors, { code: 'sft_stage', path: 'stage', message: 'stage must be stage1 or stage2' }]
  const sourceId = row.source_id
  const groundTruth = row.ground_truth
  const level = row.ground_truth_level
  if (typeof sourceId !== 'string' || !sourceId.trim())
    errors.push({ code: 'sft_source_id', path: 'source_id', message: 'source_id must be a non-empty string' })
  if (typeof groundTruth !== 'string' || !context.task.choices.hasCategoryId(groundTruth))
    errors.push({ code: 'sft_ground_truth', path: 'ground_truth', message: 'ground_truth is not a registry category' })
  if (typeof level !== 'string' || !context.task.grading.levels.includes(level))
    errors.push({ code: 'sft_level', path: 'ground_truth_level', message: 'ground_truth_level is not an approved level' })
  const metadata = row.metadata
  if (!isObject(metadata) || Object.keys(metadata).sort().join('\0') !== [...context.fields].sort().join('\0')) {
    errors.push({ code: 'sft_metadata', path: 'metadata', message: 'metadata must hold exactly the task config fields' })
  }
  const candidates = row.candidates
  if (
    !Array.isArray(candidates) ||
    candidates.length !== 5 ||
    new Set(candidates).size !== 5 ||
    !candidates.every((id) => typeof id === 'string' && context.task.choices.hasCategoryId(id))
  ) {
    errors.push({ code: 'sft_candidates', path: 'candidates', message: 'candidates must be five unique registry ids' })
  }
  if (errors.length > 0) return errors
  const expected = context.builder.build({
    sourceId: sourceId as string,
    metadata: metadata as Record<string, unknown>,
    groundTruth: groundTruth as string,
    level: level as string,
  })
  if ((candidates as string[]).join('\0') !== expected.candidates.join('\0'))
    errors.push({
      code: 'sft_candidates',
      path: 'candidates',
      message: 'candidates do not follow the source-seeded bundle order',
    })
  const text = stage === 'stage1' ? expected.stage1 : expected.stage2
  if (contents[0] !== text[0] || contents[1] !== text[1])
    errors.push({
      code: 'sft_prompt_mismatch',
      path: 'messages',
      message: 'system/user prompt does not match the registry and task config',
    })
  if (contents[2] !== text[2]) errors.push(answerIssue('assistant answer is not the canonical answer text'))
  errors.push(...decodeAssistant(stage, contents[2] as string, row, context))
  return errors
}

/** Stage pairs: each source exactly one stage1 and one stage2 row, with the same labels and candidates. */
export class StagePairs {
  private readonly seen = new Map<string, { stages: string[]; labels: string }>()

  add(row: Record<string, unknown>): void {
    if (typeof row.source_id !== 'string') return
    const entry = this.seen.get(row.source_id) ?? { stages: [], labels: '' }
    const labels = JSON.stringify([row.ground_truth, row.ground_truth_level, row.candidates])
    if (entry.stages.length === 0) entry.labels = labels
    else if (entry.labels !== labels) entry.labels = '\0mismatch'
    entry.stages.push(String(row.stage))
    this.seen.set(row.source_id, entry)
  }

  errors(): string[] {
    const errors: string[] = []
    for (const [sourceId, entry] of this.seen) {
      if (entry.stages.sort().join(',') !== 'stage1,stage2')
        errors.push(`source_id ${sourceId} must have exactly one stage1 and one stage2 row, has ${entry.stages.join(', ')}`)
      else if (entry.labels === '\0mismatch')
        errors.push(`source_id ${sourceId} must share ground truth, level and candidates across stages`)
    }
    return errors
  }

  sourceIds(): Set<string> {
    return new Set(this.seen.keys())
  }
}
