/**
 * @module train/smoke: the tiny local model both smokes train (`releaseops train smoke` and the
 * dashboard's smoke preset): a random Qwen3 built from a config and Qwen3's tokenizer files (npm), then
 * a supervised warm-up on scripted trajectories until it writes the env's tool calls. Nothing comes
 * from the Hub. The warmed model is cached under the outputs root by a key of everything that made it
 * (the trajectories' hash and the settings), so only the first smoke pays for the warm-up.
 *
 * ```
 * plan = planTinyModel(...)        // records the trajectories, reads the cache stamp
 * plan.cached ? nothing : run plan.steps in order (python -u -m …, cwd python/), then plan.stamp()
 * ```
 */
import { existsSync } from 'node:fs'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { packageRoot } from '../training-settings.js'
import { qwen3TokenizerFolder, stampMatches, writeWarmupTrajectories } from './smoke-steps.js'
import { tinyModelFolders, warmupDefaults, warmupSettings } from './tiny-model-settings.js'

export interface TinyModelStep {
  name: string
  /** Arguments after `python -u` (run with `cwd` python/, where `releaseops_train` lives). */
  args: string[]
}

export interface TinyModelPlan {
  /** The warmed model's folder (absolute). */
  warm: string
  /** True when the cache already holds this exact model: no step to run. */
  cached: boolean
  steps: TinyModelStep[]
  /** The folder the steps run in. */
  cwd: string
  /** Marks the warmed model as made by this plan (after its steps succeeded). */
  stamp: () => Promise<void>
}

export async function planTinyModel(options: {
  envId: string
  outputsRoot: string
  /** Where the warm-up trajectories are written (their hash is part of the cache key). */
  trajectoriesPath: string
  warmupSteps: number
  warmupRows: number
  /** Sampling temperature of the warm-up's emission check (GRPO's). */
  temperature: number
  minToolCallRate: number
}): Promise<TinyModelPlan> {
  const sha = await writeWarmupTrajectories({ envId: options.envId, rows: options.warmupRows, path: options.trajectoriesPath })
  const random = join(options.outputsRoot, tinyModelFolders.random)
  const warm = join(options.outputsRoot, tinyModelFolders.warm)
  const w = warmupSettings
  // The key `train smoke` has always written; a non-default emission bar is part of what made the model.
  const minRate = options.minToolCallRate === warmupDefaults.minToolCallRate ? '' : ` min-rate=${options.minToolCallRate}`
  const key = `${sha} steps=${options.warmupSteps} lr=${w.learningRate} temperature=${options.temperature} held-out=${w.heldOut} hidden=${w.hiddenSize} layers=${w.layers} seed=${w.seed}${minRate}`
  const stampPath = join(warm, 'releaseops-warmup.key')
  const cached = existsSync(join(warm, 'model.safetensors')) && (await stampMatches(stampPath, key))
  // A warm-up that then fails has overwritten the folder: the old stamp must not vouch for it.
  if (!cached) await rm(stampPath, { force: true })
  const steps: TinyModelStep[] = [
    {
      name: 'build tiny Qwen3',
      args: [
        ...['-m', 'releaseops_train.tiny_qwen3', '--tokenizer', qwen3TokenizerFolder(), '--out', random],
        ...['--hidden-size', String(w.hiddenSize), '--layers', String(w.layers), '--seed', String(w.seed)],
      ],
    },
    {
      name: 'warm-up',
      args: [
        ...['-m', 'releaseops_train.warmup', '--model', random, '--trajectories', options.trajectoriesPath, '--out', warm],
        ...['--steps', String(options.warmupSteps), '--max-turns', '1', '--learning-rate', w.learningRate],
        ...['--held-out', String(w.heldOut), '--temperature', String(options.temperature), '--seed', String(w.seed)],
        ...['--min-tool-call-rate', String(options.minToolCallRate)],
      ],
    },
  ]
  return {
    warm,
    cached,
    steps: cached ? [] : steps,
    cwd: join(packageRoot, 'python'),
    stamp: async () => {
      await mkdir(warm, { recursive: true })
      await writeFile(stampPath, `${key}\n`)
    },
  }
}
