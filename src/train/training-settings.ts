/**
 * @module train: where the server keeps outputs and how it launches trainers. Defaults come from the
 * environment (`RELEASEOPS_OUTPUTS_DIR`, as the original Space; `RELEASEOPS_TRAIN_PYTHON`;
 * `RELEASEOPS_SMOKE_MODEL`; `HF_TOKEN`, `HF_ENDPOINT`) and from this package: `python/train_grpo.py`, and `.venv-rl/bin/python` when
 * `scripts/setup-rl-python.sh` made one.
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'

/** The package root: two levels above this file, in `src/train/` and in `dist/train/` alike. */
export const packageRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..')

const trainingSettingsSchema = z.strictObject({
  /** Everything the server writes (runs, eval jobs, caches) and everything `/outputs/*` serves. */
  outputsDir: z.string().min(1),
  python: z.string().min(1),
  trainScript: z.string().min(1),
  /** SIGTERM → SIGKILL grace when a run is stopped. */
  stopGraceMs: z.int().min(0).max(600_000).default(10_000),
  /** How often `/train/live` looks for new metrics and log lines. */
  liveIntervalMs: z.int().min(20).max(60_000).default(1000),
  /**
   * What the smoke preset trains when a request names no model: a Hub id or a model folder under the
   * outputs root (`RELEASEOPS_SMOKE_MODEL`). Unset: the tiny local Qwen3 of `train smoke`, made by the run.
   */
  smokeModel: z.string().min(1).max(1024).optional(),
  hubToken: z.string().min(1).optional(),
  hubUrl: z.url().optional(),
})

export type TrainingSettings = z.output<typeof trainingSettingsSchema>
export type TrainingSettingsInput = z.input<typeof trainingSettingsSchema>

export function defaultTrainingSettings(options: { environment: NodeJS.ProcessEnv; cwd: string }): TrainingSettingsInput {
  const { environment } = options
  const venvPython = resolve(packageRoot, '.venv-rl', 'bin', 'python')
  const hubToken = environment.HF_TOKEN || environment.HUGGING_FACE_HUB_TOKEN || undefined
  const hubUrl = environment.HF_ENDPOINT || undefined
  const smokeModel = environment.RELEASEOPS_SMOKE_MODEL || undefined
  return {
    outputsDir: resolve(options.cwd, environment.RELEASEOPS_OUTPUTS_DIR || 'outputs'),
    python: environment.RELEASEOPS_TRAIN_PYTHON || (existsSync(venvPython) ? venvPython : 'python3'),
    trainScript: resolve(packageRoot, 'python', 'train_grpo.py'),
    ...(smokeModel ? { smokeModel } : {}),
    ...(hubToken ? { hubToken } : {}),
    ...(hubUrl ? { hubUrl } : {}),
  }
}

/** Settings with the outputs root made absolute. */
export function resolveTrainingSettings(input: TrainingSettingsInput): TrainingSettings {
  const settings = trainingSettingsSchema.parse(input)
  return { ...settings, outputsDir: resolve(settings.outputsDir), trainScript: resolve(settings.trainScript) }
}
