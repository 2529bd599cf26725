/**
 * @module train: what `POST /train/start` accepts: a preset (`smoke` or `pilot`) plus validated
 * overrides, one strict zod schema (unknown keys are refused with their path). A model is either a Hub
 * id (`model_name`, `org/name`) or a folder under the outputs root (`model_path`), never an arbitrary
 * path on the server. Without either, the smoke preset trains the tiny local Qwen3 `train smoke` trains
 * (built and warmed up under the outputs root, nothing from the Hub), then probes it.
 */
import { z } from 'zod'
import { warmupDefaults } from './smoke/tiny-model-settings.js'

/** `org/name` as the Hub spells repo ids (no `..`, no leading dot or dash). */
export const hubRepoIdSchema = z
  .string()
  .max(96 * 2 + 1)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,95}\/[A-Za-z0-9][A-Za-z0-9_.-]{0,95}$/, 'Expected a Hub repo id: owner/name.')
  .refine((value) => !value.includes('..') && !value.endsWith('.git'), 'Expected a Hub repo id: owner/name.')

/** The optimisers `train_grpo.py --optim` takes (python/releaseops_train/config.py OPTIMIZERS). */
const trainerOptimizers = [
  'adamw_torch',
  'adamw_torch_fused',
  'paged_adamw_8bit',
  'adamw_8bit',
  'paged_adamw_32bit',
  'adafactor',
  'sgd',
] as const
/** TRL GRPOTrainer's loss types (config.py LOSS_TYPES). */
const grpoLossTypes = ['grpo', 'dr_grpo', 'dapo', 'bnpo', 'cispo', 'sapo', 'luspo', 'vespo'] as const

const count = (max: number) => z.int().min(1).max(max)

/** TRL's vLLM modes (`train_grpo.py --use-vllm`). */
const vllmModes = ['colocate', 'server'] as const
/** A module name peft can target (`q_proj`, `model.layers.0.mlp.up_proj`) or its `all-linear` shorthand. */
const loraModuleSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/, 'Expected a module name such as q_proj.')

export const trainingStartSchema = z
  .strictObject({
    preset: z
      .enum(['smoke', 'pilot'])
      .default('smoke')
      .describe('smoke: the tiny local model, 4 steps, offline; pilot: a real run of a Hub model.'),
    env_id: z.string().min(1).max(100).optional().describe('Env to train on (default: the server’s default env).'),
    split: z.string().min(1).max(64).optional().describe('Dataset split the env generates (default train).'),
    max_rows: count(1_000_000).optional().describe('Use this many rows of the split (shuffled with the seed).'),
    model_name: hubRepoIdSchema.optional().describe('A Hub model id, e.g. Qwen/Qwen3-0.6B.'),
    model_path: z.string().min(1).max(1024).optional().describe('A model folder under the outputs root, e.g. models/tiny.'),
    max_steps: count(100_000).optional(),
    num_generations: z.int().min(2).max(64).optional(),
    per_device_train_batch_size: count(256).optional(),
    gradient_accumulation_steps: count(1024).optional(),
    max_completion_length: z.int().min(16).max(65_536).optional(),
    max_tool_calling_iterations: count(256).optional(),
    learning_rate: z.number().positive().max(1).optional(),
    temperature: z.number().positive().max(4).optional().describe('Sampling temperature of the rollouts.'),
    logging_steps: count(10_000).optional(),
    save_steps: count(100_000).optional(),
    seed: z
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .optional(),
    bf16: z.boolean().optional().describe('Default: on with a GPU that supports it, off on CPU.'),
    gradient_checkpointing: z.boolean().optional().describe('Default: on with a GPU, off on CPU.'),
    optim: z
      .enum(trainerOptimizers)
      .optional()
      .describe('Default: paged_adamw_8bit on a GPU with bitsandbytes, else adamw_torch (8-bit ones need both).'),
    beta: z.number().min(0).max(10).optional().describe('KL coefficient (0: no reference model).'),
    loss_type: z.enum(grpoLossTypes).optional().describe('TRL GRPO loss formulation (default dapo).'),
    enable_thinking: z.boolean().optional().describe('Qwen3 chat_template_kwargs.enable_thinking (default false).'),
    best_window: count(100).optional().describe('Logged rewards averaged to choose the best checkpoint.'),
    use_vllm: z.enum(vllmModes).optional().describe('Generate rollouts with vLLM: colocate (one GPU) or server.'),
    vllm_gpu_memory_utilization: z.number().gt(0).max(1).optional().describe('GPU share vLLM takes in colocate mode.'),
    vllm_server_base_url: z.url().max(256).optional().describe('The `trl vllm-serve` address in server mode.'),
    lora_r: count(1024).optional().describe('Train a LoRA adapter of this rank (peft) instead of all weights.'),
    lora_alpha: count(4096).optional().describe('LoRA alpha (default 2 × rank).'),
    lora_target_modules: z.array(loraModuleSchema).min(1).max(64).optional().describe('Modules LoRA adapts.'),
    hub_repo: hubRepoIdSchema.optional().describe('Push the best checkpoint here when the run succeeds.'),
    warmup_steps: count(100_000).optional().describe('Tiny model (smoke, no model given): supervised warm-up steps (200).'),
    warmup_min_tool_call_rate: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe('Tiny model: the held-out tool-call rate the warm-up must reach, or the run fails (0.5).'),
    probe: z
      .boolean()
      .optional()
      .describe('Tiny model: probe the warm and the trained model on held-out episodes for a learning verdict (true).'),
  })
  .refine((value) => value.model_name === undefined || value.model_path === undefined, {
    message: 'Give model_name or model_path, not both.',
    path: ['model_path'],
  })
  .refine((value) => value.lora_r !== undefined || (value.lora_alpha === undefined && value.lora_target_modules === undefined), {
    message: 'lora_alpha and lora_target_modules need lora_r.',
    path: ['lora_r'],
  })
  .refine(
    (value) =>
      (value.preset === 'smoke' && value.model_name === undefined && value.model_path === undefined) ||
      (value.warmup_steps === undefined && value.warmup_min_tool_call_rate === undefined && value.probe === undefined),
    {
      message:
        'warmup_steps, warmup_min_tool_call_rate and probe are for the smoke preset’s tiny model (no model_name or model_path).',
      path: ['preset'],
    },
  )
  .refine((value) => value.use_vllm === 'server' || value.vllm_server_base_url === undefined, {
    message: 'vllm_server_base_url is for use_vllm "server".',
    path: ['vllm_server_base_url'],
  })

export type TrainingStartRequest = z.output<typeof trainingStartSchema>
export type TrainingPreset = TrainingStartRequest['preset']

/** Every hyperparameter a run is launched with (the preset filled in by the overrides). */
export interface TrainingParameters {
  preset: TrainingPreset
  envId: string
  split: string
  maxRows: number | undefined
  /** A Hub id, or an absolute model folder already checked to lie inside the outputs root. */
  model: string
  maxSteps: number
  numGenerations: number
  perDeviceTrainBatchSize: number
  gradientAccumulationSteps: number
  maxCompletionLength: number
  maxToolCallingIterations: number | undefined
  learningRate: number
  temperature: number
  loggingSteps: number
  saveSteps: number
  seed: number
  bf16: boolean | undefined
  gradientCheckpointing: boolean | undefined
  optim: (typeof trainerOptimizers)[number] | undefined
  beta: number | undefined
  lossType: (typeof grpoLossTypes)[number] | undefined
  enableThinking: boolean | undefined
  bestWindow: number
  hubRepo: string | undefined
  gpu: GpuOptions
  /** Set when the run trains the tiny local model (the smoke preset without a model): how it is made. */
  tinyModel: TinyModelOptions | undefined
}

export interface TinyModelOptions {
  warmupSteps: number
  warmupMinToolCallRate: number
  /** Probe the warm and the trained model afterwards (a learning verdict beside the run). */
  probe: boolean
}

/** vLLM generation and LoRA, passed on as given (train_grpo.py refuses what the host cannot run). */
export interface GpuOptions {
  useVllm: (typeof vllmModes)[number] | undefined
  vllmGpuMemoryUtilization: number | undefined
  vllmServerBaseUrl: string | undefined
  loraR: number | undefined
  loraAlpha: number | undefined
  loraTargetModules: string[] | undefined
}

type PresetValues = Omit<
  TrainingParameters,
  | 'preset'
  | 'envId'
  | 'model'
  | 'hubRepo'
  | 'maxRows'
  | 'bf16'
  | 'gradientCheckpointing'
  | 'optim'
  | 'beta'
  | 'lossType'
  | 'enableThinking'
  | 'gpu'
  | 'tinyModel'
> & {
  /** null: the tiny local Qwen3 (`train smoke`'s), built under the outputs root. */
  model: string | null
  maxRows: number | undefined
}

/**
 * The original's smoke (8 steps of a 0.5B model from the Hub) is `train smoke`'s run: the tiny local
 * model, 4 steps of 4 prompts × 4 completions in one tool round, lr 5e-4, temperature 0.7, seed 7
 * (decision 0061); it needs no network. Its pilot (Qwen3-0.6B) is kept. `maxCompletionLength` here is only the fallback for an env without a policy ladder: a run on
 * an env with one takes the measured budget (`completion-budget.ts`; releaseops-v3 with Qwen3's template:
 * 3,520 for whole episodes, 192 for one tool round).
 */
export const trainingPresets: Record<TrainingPreset, PresetValues> = {
  smoke: {
    split: 'train',
    maxRows: 64,
    model: null,
    maxSteps: 4,
    numGenerations: 4,
    perDeviceTrainBatchSize: 16,
    gradientAccumulationSteps: 1,
    maxCompletionLength: 192,
    maxToolCallingIterations: 1,
    learningRate: 5e-4,
    temperature: 0.7,
    loggingSteps: 1,
    saveSteps: 500,
    seed: 7,
    bestWindow: 1,
  },
  pilot: {
    split: 'train',
    maxRows: undefined,
    model: 'Qwen/Qwen3-0.6B',
    maxSteps: 100,
    numGenerations: 4,
    perDeviceTrainBatchSize: 4,
    gradientAccumulationSteps: 4,
    maxCompletionLength: 4096,
    maxToolCallingIterations: undefined,
    learningRate: 1e-5,
    temperature: 1,
    loggingSteps: 5,
    saveSteps: 50,
    seed: 42,
    bestWindow: 3,
  },
}

/**
 * The preset with the request's overrides. `model`: what the run preparation made of model_name,
 * model_path or the preset; `tiny`: it is the tiny local model, made by the run.
 */
export function trainingParameters(options: {
  request: TrainingStartRequest
  envId: string
  model: string
  tiny: boolean
}): TrainingParameters {
  const { request } = options
  const preset = trainingPresets[request.preset]
  return {
    preset: request.preset,
    envId: options.envId,
    split: request.split ?? preset.split,
    maxRows: request.max_rows ?? preset.maxRows,
    model: options.model,
    maxSteps: request.max_steps ?? preset.maxSteps,
    numGenerations: request.num_generations ?? preset.numGenerations,
    perDeviceTrainBatchSize: request.per_device_train_batch_size ?? preset.perDeviceTrainBatchSize,
    gradientAccumulationSteps: request.gradient_accumulation_steps ?? preset.gradientAccumulationSteps,
    maxCompletionLength: request.max_completion_length ?? preset.maxCompletionLength,
    maxToolCallingIterations: request.max_tool_calling_iterations ?? preset.maxToolCallingIterations,
    learningRate: request.learning_rate ?? preset.learningRate,
    temperature: request.temperature ?? preset.temperature,
    loggingSteps: request.logging_steps ?? preset.loggingSteps,
    saveSteps: request.save_steps ?? preset.saveSteps,
    seed: request.seed ?? preset.seed,
    bf16: request.bf16,
    gradientCheckpointing: request.gradient_checkpointing,
    optim: request.optim,
    beta: request.beta,
    lossType: request.loss_type,
    enableThinking: request.enable_thinking,
    bestWindow: request.best_window ?? preset.bestWindow,
    hubRepo: request.hub_repo,
    gpu: {
      useVllm: request.use_vllm,
      vllmGpuMemoryUtilization: request.vllm_gpu_memory_utilization,
      vllmServerBaseUrl: request.vllm_server_base_url,
      loraR: request.lora_r,
      loraAlpha: request.lora_alpha,
      loraTargetModules: request.lora_target_modules,
    },
    tinyModel: options.tiny
      ? {
          warmupSteps: request.warmup_steps ?? warmupDefaults.steps,
          warmupMinToolCallRate: request.warmup_min_tool_call_rate ?? warmupDefaults.minToolCallRate,
          probe: request.probe ?? true,
        }
      : undefined,
  }
}
