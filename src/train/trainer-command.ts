/**
 * @module train: the trainer's command line and environment, pure functions of the run's parameters.
 * The command is a list (no shell); the environment is hardened as the original Space learnt to:
 * unbuffered output, no torch.compile, writable caches and HOME, and the env server's token passed in
 * the environment, never on the command line (which `ps` and logs show).
 */
import { join } from 'node:path'
import type { TrainingParameters } from './training-request.js'

export interface TrainerCommandOptions {
  python: string
  script: string
  parameters: TrainingParameters
  runDir: string
  datasetPath: string
  envUrl: string
}

export function trainerCommand(options: TrainerCommandOptions): string[] {
  const { parameters: p } = options
  const flags: [string, string | number | undefined][] = [
    ['--dataset', options.datasetPath],
    ['--output-dir', options.runDir],
    ['--env-url', options.envUrl],
    ['--env-id', p.envId],
    ['--model-name', p.model],
    ['--max-rows', p.maxRows],
    ['--max-steps', p.maxSteps],
    ['--num-generations', p.numGenerations],
    ['--per-device-train-batch-size', p.perDeviceTrainBatchSize],
    ['--gradient-accumulation-steps', p.gradientAccumulationSteps],
    ['--max-completion-length', p.maxCompletionLength],
    ['--max-tool-calling-iterations', p.maxToolCallingIterations],
    ['--learning-rate', p.learningRate],
    ['--temperature', p.temperature],
    ['--logging-steps', p.loggingSteps],
    ['--save-steps', p.saveSteps],
    ['--seed', p.seed],
    ['--best-window', p.bestWindow],
    ['--bf16', p.bf16 === undefined ? undefined : String(p.bf16)],
    ['--gradient-checkpointing', p.gradientCheckpointing === undefined ? undefined : String(p.gradientCheckpointing)],
    ['--optim', p.optim],
    ['--beta', p.beta],
    ['--loss-type', p.lossType],
    ['--enable-thinking', p.enableThinking === undefined ? undefined : String(p.enableThinking)],
    ['--use-vllm', p.gpu.useVllm],
    ['--vllm-gpu-memory-utilization', p.gpu.vllmGpuMemoryUtilization],
    ['--vllm-server-base-url', p.gpu.vllmServerBaseUrl],
    ['--lora-r', p.gpu.loraR],
    ['--lora-alpha', p.gpu.loraAlpha],
    ['--lora-target-modules', p.gpu.loraTargetModules?.join(',')],
  ]
  return [
    options.python,
    '-u',
    options.script,
    ...(p.preset === 'smoke' ? ['--smoke'] : []),
    ...flags.flatMap(([flag, value]) => (value === undefined ? [] : [flag, String(value)])),
  ]
}

export interface TrainerEnvironmentOptions {
  base: NodeJS.ProcessEnv
  /** Writable folder for caches (under the outputs root). */
  cacheRoot: string
  /** The env server's token, when it has one (session routes need it). */
  token: string | undefined
}

/** Caches the user already configured are kept; missing ones go under `cacheRoot`. */
export function trainerEnvironment(options: TrainerEnvironmentOptions): NodeJS.ProcessEnv {
  const { base, cacheRoot } = options
  const environment: NodeJS.ProcessEnv = { ...base }
  const setDefault = (key: string, value: string) => {
    if (!environment[key]) environment[key] = value
  }
  environment.PYTHONUNBUFFERED = '1'
  environment.PYTHONIOENCODING = 'utf-8'
  environment.TORCH_COMPILE_DISABLE = '1'
  environment.TOKENIZERS_PARALLELISM = 'false'
  environment.TRL_EXPERIMENTAL_SILENCE = '1'
  setDefault('TORCHINDUCTOR_CACHE_DIR', join(cacheRoot, 'torchinductor'))
  setDefault('TRITON_CACHE_DIR', join(cacheRoot, 'triton'))
  const home = environment.HOME
  if (!home || home === '/') environment.HOME = join(cacheRoot, 'home')
  const cacheBase = environment.XDG_CACHE_HOME || join(cacheRoot, 'xdg')
  setDefault('XDG_CACHE_HOME', cacheBase)
  setDefault('HF_HOME', join(cacheRoot, 'huggingface'))
  setDefault('HUGGINGFACE_HUB_CACHE', join(environment.HF_HOME as string, 'hub'))
  setDefault('HF_DATASETS_CACHE', join(environment.HF_HOME as string, 'datasets'))
  setDefault('TRANSFORMERS_CACHE', join(environment.HF_HOME as string, 'hub'))
  if (options.token === undefined) delete environment.RELEASEOPS_TOKEN
  else environment.RELEASEOPS_TOKEN = options.token
  return environment
}
