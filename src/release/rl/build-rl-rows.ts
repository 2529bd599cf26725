/**
 * @module release/rl: canonical records → RL rows (pure). Per trainable record one stage-1 row (the
 * grading env's native-v2 prompt, so RL rollouts start exactly where the env's reset starts) and one
 * stage-2 row (the legacy reranker prompt with its source-seeded candidate bundle). Labels come only
 * from `target.category_id` and the grading field.
 */
import type { GradingTask } from '../../envs/grading/grading-task.js'
import { LegacyPromptBuilder } from '../../envs/grading/legacy/legacy-prompts.js'
import { buildNativeUserPrompt, nativeToolTrajectoryFormat } from '../../envs/grading/native-prompt.js'
import type { RecordRowInput } from '../planning/record-plan.js'
import { type RlRow, rlDataSource } from './rl-row.js'

export interface RlRowBuilderOptions {
  dataset: string
  task: GradingTask
}

export class RlRowBuilder {
  private readonly legacy: LegacyPromptBuilder
  private readonly fields: readonly string[]

  constructor(private readonly options: RlRowBuilderOptions) {
    this.fields = options.task.taskConfig.metadata_fields
    this.legacy = new LegacyPromptBuilder(options.task, this.fields)
  }

  /** The native-tool episode row of one record. */
  stage1(input: RecordRowInput): RlRow {
    const { task, dataset } = this.options
    return {
      data_source: rlDataSource(dataset, 'stage1'),
      prompt: [
        { role: 'system', content: task.systemPrompt },
        { role: 'user', content: buildNativeUserPrompt(input.metadata, this.fields) },
      ],
      ability: task.taskConfig.task_name,
      reward_model: { style: 'rule', ground_truth: input.groundTruth },
      extra_info: {
        dataset,
        stage: 'stage1',
        source_id: input.id,
        metadata: { ...input.metadata },
        ground_truth_level: input.level,
        trajectory_format: nativeToolTrajectoryFormat,
        candidates: null,
      },
    }
  }

  /** The legacy reranker row of one record (its candidates permuted by the source id). */
  stage2(input: RecordRowInput): RlRow {
    const { task, dataset } = this.options
    const legacy = this.legacy.build({
      sourceId: input.id,
      metadata: input.metadata,
      groundTruth: input.groundTruth,
      level: input.level,
    })
    return {
      data_source: rlDataSource(dataset, 'stage2'),
      prompt: [
        { role: 'system', content: legacy.stage2[0] },
        { role: 'user', content: legacy.stage2[1] },
      ],
      ability: task.taskConfig.task_name,
      reward_model: { style: 'rule', ground_truth: input.groundTruth },
      extra_info: {
        dataset,
        stage: 'stage2',
        source_id: input.id,
        metadata: { ...input.metadata },
        ground_truth_level: input.level,
        trajectory_format: null,
        candidates: legacy.candidates,
      },
    }
  }

  /** Stage 1 then stage 2 for every input, in input order. */
  rows(inputs: readonly RecordRowInput[]): RlRow[] {
    const rows: RlRow[] = []
    for (const input of inputs) rows.push(this.stage1(input), this.stage2(input))
    return rows
  }
}
