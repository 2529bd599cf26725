/**
 * @module release/rl: checks one RL row read back from Parquet against the task (pure): exactly the five
 * columns; the route, ability and reward model; the extra_info keys of its stage; labels in the registry
 * and rubric; and the prompt rebuilt byte for byte (stage 1: the grading env's native prompt; stage 2: the
 * legacy reranker prompt with the source-seeded candidates). Canonical ids never appear in a stage-1 prompt.
 */

import type { InputIssue } from '../../core/errors/invalid-input-error.js'
import type { GradingTask } from '../../envs/grading/grading-task.js'
import { LegacyPromptBuilder } from '../../envs/grading/legacy/legacy-prompts.js'
import { buildNativeUserPrompt, nativeToolTrajectoryFormat } from '../../envs/grading/native-prompt.js'
import { rlColumns, rlDataSource } from './rl-row.js'

const templateTokens = ['<|im_start|>', '<|im_end|>']
const commonKeys = ['dataset', 'stage', 'source_id', 'metadata', 'ground_truth_level']
const stage1Keys = [...commonKeys, 'trajectory_format']
const stage2Keys = [...commonKeys, 'candidates']

export interface RlRowContext {
  dataset: string
  task: GradingTask
  /** Stages allowed in this release (the cascade allows stage1 only). */
  stages: readonly ('stage1' | 'stage2')[]
  builder: LegacyPromptBuilder
  /** Canonical ids, longest first (for the leak check). */
  categoryIds: readonly string[]
}

export function rlRowContext(options: {
  dataset: string
  task: GradingTask
  stages?: readonly ('stage1' | 'stage2')[]
}): RlRowContext {
  return {
    dataset: options.dataset,
    task: options.task,
    stages: options.stages ?? ['stage1', 'stage2'],
    builder: new LegacyPromptBuilder(options.task),
    categoryIds: options.task.registry.categories.map((category) => category.category_id).sort((a, b) => b.length - a.length),
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.trim().length > 0

function sameKeys(value: Record<string, unknown>, keys: readonly string[]): boolean {
  const present = Object.keys(value).filter((key) => value[key] !== null && value[key] !== undefined)
  return present.length === keys.length && keys.every((key) => present.includes(key))
}

function checkExtraInfo(extra: Record<string, unknown>, context: RlRowContext, errors: InputIssue[]): void {
  const { task } = context
  const stage = extra.stage
  if (extra.dataset !== context.dataset)
    errors.push({
      code: 'rl_dataset',
      path: 'extra_info.dataset',
      message: `extra_info.dataset must be ${JSON.stringify(context.dataset)}`,
    })
  if (stage !== 'stage1' && stage !== 'stage2') {
    errors.push({ code: 'rl_stage', path: 'extra_info.stage', message: 'extra_info.stage must be stage1 or stage2' })
    return
  }
  if (!context.stages.includes(stage))
    errors.push({ code: 'rl_stage', path: 'extra_info.stage', message: `${stage} rows are not allowed in this release` })
  if (!nonEmpty(extra.source_id))
    errors.push({
      code: 'rl_source_id',
      path: 'extra_info.source_id',
      message: 'extra_info.source_id must be a non-empty string',
    })
  const fields = task.taskConfig.metadata_fields
  const metadata = extra.metadata
  if (!isObject(metadata) || !sameKeys(metadata, fields) || !fields.every((field) => typeof metadata[field] === 'string'))
    errors.push({
      code: 'rl_metadata',
      path: 'extra_info.metadata',
      message: `extra_info.metadata must hold exactly the string fields ${fields.join(', ')}`,
    })
  if (!nonEmpty(extra.ground_truth_level) || !task.grading.levels.includes(extra.ground_truth_level))
    errors.push({
      code: 'rl_level',
      path: 'extra_info.ground_truth_level',
      message: `extra_info.ground_truth_level must be one of ${task.grading.levels.join(', ')}`,
    })
  if (!sameKeys(extra, stage === 'stage1' ? stage1Keys : stage2Keys)) {
    const keys = Object.keys(extra).filter((key) => extra[key] !== null && extra[key] !== undefined)
    errors.push({
      code: 'rl_extra_info_keys',
      path: 'extra_info',
      message: `${stage} extra_info keys are ${JSON.stringify(keys.sort())}`,
    })
  }
  if (stage === 'stage1' && extra.trajectory_format !== nativeToolTrajectoryFormat)
    errors.push({
      code: 'rl_trajectory_format',
      path: 'extra_info.trajectory_format',
      message: `stage1 extra_info.trajectory_format must be ${nativeToolTrajectoryFormat}`,
    })
  if (stage === 'stage2') {
    const candidates = extra.candidates
    if (
      !Array.isArray(candidates) ||
      candidates.length !== 5 ||
      new Set(candidates).size !== 5 ||
      !candidates.every((id) => typeof id === 'string' && task.choices.hasCategoryId(id))
    )
      errors.push({
        code: 'rl_candidates',
        path: 'extra_info.candidates',
        message: 'stage2 extra_info.candidates must be five unique registry ids',
      })
  }
}

function checkPrompt(row: Record<string, unknown>, context: RlRowContext, errors: InputIssue[]): void {
  const prompt = row.prompt
  if (!Array.isArray(prompt) || prompt.length !== 2) {
    errors.push({ code: 'rl_prompt_shape', path: 'prompt', message: 'prompt must be exactly [system, user] (no assistant gold)' })
    return
  }
  const roles = prompt.map((message) => (isObject(message) ? message.role : undefined))
  const contents = prompt.map((message) => (isObject(message) ? message.content : undefined))
  if (roles.join(',') !== 'system,user')
    errors.push({
      code: 'rl_prompt_shape',
      path: 'prompt',
      message: `prompt roles are ${JSON.stringify(roles)}, not [system, user]`,
    })
  if (!contents.every(nonEmpty)) {
    errors.push({ code: 'rl_prompt_shape', path: 'prompt', message: 'prompt message contents must be non-empty strings' })
    return
  }
  if (contents.some((content) => templateTokens.some((token) => content.includes(token))))
    errors.push({ code: 'rl_template_tokens', path: 'prompt', message: 'prompt contains serialized chat-template tokens' })
  const extra = row.extra_info as Record<string, unknown>
  const reward = row.reward_model as Record<string, unknown>
  if (errors.length > 0) return
  const metadata = extra.metadata as Record<string, string>
  if (extra.stage === 'stage1') {
    const expected = [context.task.systemPrompt, buildNativeUserPrompt(metadata, context.task.taskConfig.metadata_fields)]
    if (contents[0] !== expected[0] || contents[1] !== expected[1])
      errors.push({
        code: 'rl_prompt_mismatch',
        path: 'prompt',
        message: 'prompt does not match the grading env prompt for this metadata',
      })
    const joined = contents.join('\n')
    const leaked = context.categoryIds.find((id) => joined.includes(id))
    if (leaked !== undefined)
      errors.push({
        code: 'rl_prompt_leak',
        path: 'prompt',
        message: `stage1 prompt exposes the canonical category id ${JSON.stringify(leaked)}`,
      })
    return
  }
  const expected = context.builder.build({
    sourceId: extra.source_id as string,
    metadata,
    groundTruth: reward.ground_truth as string,
    level: extra.ground_truth_level as string,
  })
  if ((extra.candidates as string[]).join('\0') !== expected.candidates.join('\0'))
    errors.push({
      code: 'rl_candidates',
      path: 'extra_info.candidates',
      message: 'stage2 candidates do not follow the source-seeded bundle order',
    })
  if (contents[0] !== expected.stage2[0] || contents[1] !== expected.stage2[1])
    errors.push({
      code: 'rl_prompt_mismatch',
      path: 'prompt',
      message: 'prompt does not match the stage2 reranker prompt for this metadata and bundle',
    })
}

/** Problems of one row as coded issues (empty when it is valid). */
export function checkRlRow(row: Record<string, unknown>, context: RlRowContext): InputIssue[] {
  const columns = Object.keys(row)
  if (columns.length !== rlColumns.length || !rlColumns.every((column) => columns.includes(column)))
    return [
      {
        code: 'rl_columns',
        path: 'row',
        message: `row must hold exactly the columns ${rlColumns.join(', ')}, got ${columns.join(', ')}`,
      },
    ]
  const errors: InputIssue[] = []
  const extra = row.extra_info
  const reward = row.reward_model
  if (!isObject(reward) || !sameKeys(reward, ['style', 'ground_truth']))
    errors.push({ code: 'rl_reward_model', path: 'reward_model', message: 'reward_model must be {style, ground_truth}' })
  else {
    if (reward.style !== 'rule')
      errors.push({ code: 'rl_reward_model', path: 'reward_model.style', message: "reward_model.style must be 'rule'" })
    if (!nonEmpty(reward.ground_truth) || !context.task.choices.hasCategoryId(reward.ground_truth))
      errors.push({
        code: 'rl_ground_truth',
        path: 'reward_model.ground_truth',
        message: 'reward_model.ground_truth is not a registry category',
      })
  }
  if (row.ability !== context.task.taskConfig.task_name)
    errors.push({
      code: 'rl_ability',
      path: 'ability',
      message: `ability must be the task name ${JSON.stringify(context.task.taskConfig.task_name)}`,
    })
  if (!isObject(extra)) return [...errors, { code: 'rl_extra_info', path: 'extra_info', message: 'extra_info must be a struct' }]
  checkExtraInfo(extra, context, errors)
  if (extra.stage === 'stage1' || extra.stage === 'stage2') {
    if (row.data_source !== rlDataSource(context.dataset, extra.stage))
      errors.push({
        code: 'rl_data_source',
        path: 'data_source',
        message: `data_source must be ${rlDataSource(context.dataset, extra.stage)}`,
      })
  }
  if (errors.length > 0) return errors
  checkPrompt(row, context, errors)
  return errors
}
