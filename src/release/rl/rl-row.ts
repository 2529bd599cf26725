/**
 * @module release/rl: the VeRL RL row: exactly five columns (`data_source`, `prompt`, `ability`,
 * `reward_model`, `extra_info`), as VeRL's `RLHFDataset` reads them. Stage 1 is the native-tool episode
 * (its prompt is the grading env's reset prompt); stage 2 is the legacy reranker prompt with its
 * five-candidate bundle. Absent stage-specific keys are null, as Parquet stores them.
 */
import { z } from 'zod'

export const rlColumns = ['data_source', 'prompt', 'ability', 'reward_model', 'extra_info'] as const
const rlStages = ['stage1', 'stage2'] as const
export type RlStage = (typeof rlStages)[number]

/** The release format id written into `export_report.json`. */
export const rlReleaseFormat = 'verl_rl_parquet'

const rlPromptMessageSchema = z.strictObject({
  role: z.enum(['system', 'user']),
  content: z.string(),
})

const rlExtraInfoSchema = z.strictObject({
  dataset: z.string(),
  stage: z.enum(rlStages),
  source_id: z.string(),
  metadata: z.record(z.string(), z.string()),
  ground_truth_level: z.string(),
  /** Stage 1 only: the native trajectory format id. */
  trajectory_format: z.string().nullable(),
  /** Stage 2 only: the five canonical candidate ids, in their source-seeded order. */
  candidates: z.array(z.string()).nullable().optional(),
})

const rlRowSchema = z.strictObject({
  data_source: z.string(),
  prompt: z.array(rlPromptMessageSchema),
  ability: z.string(),
  reward_model: z.strictObject({ style: z.literal('rule'), ground_truth: z.string() }),
  extra_info: rlExtraInfoSchema,
})

export type RlPromptMessage = z.output<typeof rlPromptMessageSchema>
export type RlExtraInfo = z.output<typeof rlExtraInfoSchema>
export type RlRow = z.output<typeof rlRowSchema>

/** `<dataset>/<stage>`: the reward route VeRL keys on (`data.reward_fn_key=data_source`). */
export function rlDataSource(dataset: string, stage: RlStage): string {
  return `${dataset}/${stage}`
}
