/**
 * @module train/verl: the settings of a VeRL run (`releaseops verl config`), validated once, recorded in
 * `verl_config.json` and turned into Hydra overrides. Defaults are the original's RLOO smoke recipe
 * (LoRA r8/α16, prompt 7168 / response 2048 / model length 12288, rollout.n 4, KL as an actor loss only).
 */
import { z } from 'zod'
import { verlModelFamilies } from './model-family.js'

export const verlRunKinds = ['sft', 'rloo'] as const
export type VerlRunKind = (typeof verlRunKinds)[number]

/** The oldest VeRL this launch path supports (flat `data.*_key` SFT keys, function tools, qwen3_coder). */
export const minimumVerlVersion = '0.9.0'

const positive = z.number().int().positive()

export const verlRunSettingsSchema = z
  .strictObject({
    kind: z.enum(verlRunKinds),
    /** The model to train: a local Hugging Face directory (the reference checkpoint for RLOO). */
    model_path: z.string().min(1),
    /** The model's family when its checkpoint ships no template we know (else read from the template). */
    model_family: z.enum(verlModelFamilies).optional(),
    python: z.string().min(1).default('python3'),
    gpus_per_node: positive.default(1),
    nodes: positive.default(1),
    enable_thinking: z.boolean().default(false),
    max_prompt_length: positive.default(7168),
    max_response_length: positive.default(2048),
    /** SFT: tokens per conversation. */
    max_length: positive.default(9216),
    /** SFT with dynamic batch size: tokens per GPU per micro-batch; at least `max_length` (default: it). */
    max_token_len_per_gpu: positive.optional(),
    max_model_length: positive.default(12288),
    rollout_n: z.number().int().min(2).default(4),
    train_batch_size: positive.default(4),
    ppo_mini_batch_size: positive.default(4),
    micro_batch_size_per_gpu: positive.default(1),
    learning_rate: z.number().positive().default(1e-4),
    kl_loss_coef: z.number().min(0).default(0.001),
    lora_rank: z.number().int().min(0).default(8),
    lora_alpha: positive.default(16),
    /** RLOO from an SFT run: the `lora_adapter/` VeRL's model merger wrote beside the base weights. */
    lora_adapter_path: z.string().min(1).optional(),
    /**
     * What VeRL's KL reference is. VeRL always takes it from `model_path`: under LoRA the reference is the
     * actor with its adapter disabled, in full fine-tuning a frozen copy of `model_path`. `base`: those are
     * the pre-SFT base weights (an SFT adapter, if any, continues as `lora_adapter_path`); `sft`: they are
     * the SFT weights with the adapter folded in (`releaseops_verl.fold_adapter`), trained with a fresh LoRA.
     */
    kl_reference: z.enum(['base', 'sft']).default('base'),
    gpu_memory_utilization: z.number().gt(0).lt(1).default(0.5),
    total_training_steps: positive.default(3),
    total_epochs: positive.default(1),
    save_freq: positive.default(1),
    test_freq: positive.default(1),
    project_name: z.string().min(1).default('releaseops-grading'),
    experiment_name: z.string().min(1).optional(),
    max_tool_calls: positive.default(3),
    max_tool_response_length: positive.default(4096),
  })
  .superRefine((settings, context) => {
    const issue = (path: string, message: string) => context.addIssue({ code: 'custom', path: [path], message })
    if (settings.max_model_length < settings.max_prompt_length + settings.max_response_length)
      issue('max_model_length', 'must cover max_prompt_length + max_response_length')
    if (settings.max_token_len_per_gpu !== undefined && settings.max_token_len_per_gpu < settings.max_length)
      issue('max_token_len_per_gpu', 'must be at least max_length (a longer row would trip VeRL’s dynamic-batch assert)')
    if (settings.kl_reference === 'sft' && settings.lora_adapter_path !== undefined)
      issue(
        'kl_reference',
        "an SFT reference cannot continue the SFT adapter: under LoRA VeRL's reference is the actor without its adapter (the base); fold the adapter into the weights and start from them with a fresh LoRA",
      )
    if (settings.train_batch_size % settings.ppo_mini_batch_size !== 0)
      issue('ppo_mini_batch_size', 'must divide train_batch_size')
    if (settings.save_freq > settings.total_training_steps) issue('save_freq', 'must be reachable within total_training_steps')
    if (settings.test_freq > settings.total_training_steps) issue('test_freq', 'must be reachable within total_training_steps')
  })

export type VerlRunSettings = z.output<typeof verlRunSettingsSchema>
export type VerlRunSettingsInput = z.input<typeof verlRunSettingsSchema>
