/**
 * @module train/verl: `verl config --preset smoke|full` (issue 37 item 2). `smoke` is the tiny run CI
 * launches (3 steps, checkpoint and validation every step, 4 prompts a step); `full`, the default, is
 * sized for the README's host: one GPU with ≥ 80 GiB (the preflight's `--min-gpu-memory-gib 80`), with
 * the token budgets the preflight measures (prompt 7168 / response 2048 for grading; the Arena's own).
 * Every value is returned with why it was chosen, and the command prints them all.
 */
import type { VerlRunKind } from './verl-run-settings.js'

export const verlPresets = ['smoke', 'full'] as const
export type VerlPreset = (typeof verlPresets)[number]

export interface SettingChoice {
  value: unknown
  /** Where it came from: the preset, the user (flag or --settings), derived from another value, or the schema default. */
  source: 'preset' | 'given' | 'derived' | 'default'
  why: string
}

/** Optimiser updates per training step in the full preset: train_batch_size / ppo_mini_batch_size. */
const updatesPerStep = 4

function presetValues(
  preset: VerlPreset,
  run: { kind: VerlRunKind; arena: boolean },
): Record<string, { value: unknown; why: string }> {
  if (preset === 'smoke')
    return {
      total_training_steps: { value: 3, why: 'smoke: three steps prove the launch, not learning' },
      total_epochs: { value: 1, why: 'smoke: one pass at most' },
      save_freq: { value: 1, why: 'smoke: a checkpoint every step, so the merge path is exercised' },
      test_freq: { value: 1, why: 'smoke: validation every step' },
      train_batch_size: { value: 4, why: 'smoke: four prompts a step fit any GPU' },
      ppo_mini_batch_size: { value: 4, why: 'smoke: one optimiser update a step' },
    }
  const batch = run.arena ? 64 : 32
  return {
    total_training_steps: {
      value: 200,
      why: 'full: 200 steps, the budget of one run on one GPU (the steps govern, not epochs)',
    },
    total_epochs: { value: 100, why: 'full: high enough that total_training_steps ends the run' },
    save_freq: { value: 50, why: 'full: four checkpoints a run (each is a full LoRA state)' },
    test_freq: { value: 25, why: 'full: validation eight times a run' },
    train_batch_size: {
      value: batch,
      why: run.arena
        ? `full: ${batch} prompts × rollout_n sessions a step stay well under one env server's 4096`
        : `full: ${batch} prompts a step on one ≥ 80 GiB GPU with the measured 7168/2048 token budget`,
    },
    ppo_mini_batch_size: {
      value: batch / updatesPerStep,
      why: `full: ${updatesPerStep} optimiser updates a step (train_batch_size / ${updatesPerStep})`,
    },
    ...(run.kind === 'rloo'
      ? { rollout_n: { value: run.arena ? 8 : 4, why: 'full: samples per prompt RLOO compares (≥ 2)' } }
      : {}),
  }
}

/**
 * The settings a preset gives, under what the user gave (flags and `--settings` win). In `full`, a
 * train_batch_size of the user's own keeps four updates a step when it divides; `--steps` alone moves the
 * checkpoint and validation cadence with it.
 */
export function presetSettings(options: {
  preset: VerlPreset
  kind: VerlRunKind
  arena: boolean
  given: Record<string, unknown>
}): { settings: Record<string, unknown>; choices: Record<string, SettingChoice> } {
  const { given } = options
  const choices: Record<string, SettingChoice> = {}
  for (const [key, value] of Object.entries(given)) choices[key] = { value, source: 'given', why: 'given' }
  for (const [key, choice] of Object.entries(presetValues(options.preset, options)))
    if (!(key in given)) choices[key] = { ...choice, source: 'preset' }
  const derive = (key: string, value: unknown, why: string) => {
    if (!(key in given)) choices[key] = { value, source: 'derived', why }
  }
  const batch = given.train_batch_size
  if (typeof batch === 'number' && options.preset === 'full')
    derive(
      'ppo_mini_batch_size',
      batch % updatesPerStep === 0 ? batch / updatesPerStep : batch,
      batch % updatesPerStep === 0
        ? `${updatesPerStep} optimiser updates a step of the given train_batch_size`
        : `train_batch_size ${batch} is not a multiple of ${updatesPerStep}: one update a step`,
    )
  const steps = given.total_training_steps
  if (typeof steps === 'number') {
    const smoke = options.preset === 'smoke'
    derive('save_freq', smoke ? 1 : Math.max(1, Math.ceil(steps / 4)), 'follows the given step count')
    derive('test_freq', smoke ? 1 : Math.max(1, Math.ceil(steps / 8)), 'follows the given step count')
  }
  const settings = Object.fromEntries(Object.entries(choices).map(([key, choice]) => [key, choice.value]))
  return { settings, choices }
}

/** One line per setting of the run: value, source and why (schema defaults named as such). */
export function settingsSummary(options: {
  preset: VerlPreset
  settings: Record<string, unknown>
  choices: Record<string, SettingChoice>
  root: string
}): string[] {
  const lines = [`verl config: preset ${options.preset}; paths for the run directory at ${options.root}`]
  const width = Math.max(...Object.keys(options.settings).map((key) => key.length))
  for (const [key, value] of Object.entries(options.settings)) {
    const choice = options.choices[key]
    const why = choice ? `${choice.source}: ${choice.why}` : 'default: the original recipe (verl_config.json settings)'
    lines.push(`  ${key.padEnd(width)}  ${JSON.stringify(value)}  (${why})`)
  }
  return lines
}
