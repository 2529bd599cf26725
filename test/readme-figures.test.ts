/**
 * Issue 37 item 3: the defaults and figures the training docs quote are the code's. Each expected phrase
 * is built from the value in the code (commander option defaults, `train_grpo.py`'s parser and its run
 * defaults, the VeRL presets), so changing a default without the docs fails here.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Command } from '@commander-js/extra-typings'
import { describe, expect, it } from 'vitest'
import { registerTrainCommand } from '../src/cli/commands/train-command.js'
import { presetSettings } from '../src/train/verl/verl-presets.js'
import { testPython } from './support/python.js'
import { repositoryRoot } from './support/run-cli.js'

/** A number as the docs write it: 5e-4, 0.7, 200. */
const figure = (value: unknown) => (Number(value) < 0.01 ? Number(value).toExponential() : String(value))
const read = (path: string) => readFileSync(join(repositoryRoot, path), 'utf8').replace(/\s+/g, ' ')
const trainReadme = read('src/train/README.md')
const verlReadme = read('src/train/verl/README.md')

function smokeDefaults(): Record<string, unknown> {
  const program = new Command()
  registerTrainCommand(program)
  const smoke = program.commands.find((command) => command.name() === 'train')?.commands.find((c) => c.name() === 'smoke')
  return Object.fromEntries((smoke?.options ?? []).map((option) => [option.attributeName(), option.defaultValue]))
}

interface TrainerDefaults {
  parser: Record<string, unknown>
  run: Record<string, unknown>
  smoke: Record<string, unknown>
}

function trainerDefaults(): TrainerDefaults {
  const script = [
    'import json, sys',
    "sys.path.insert(0, 'python')",
    'from releaseops_train.config import DEFAULTS, SMOKE_DEFAULTS, build_parser',
    'parser = build_parser()',
    'print(json.dumps({"parser": {a.dest: a.default for a in parser._actions if a.dest != "help"}, "run": DEFAULTS, "smoke": SMOKE_DEFAULTS}))',
  ].join('\n')
  const result = spawnSync(testPython(), ['-c', script], { cwd: repositoryRoot, encoding: 'utf8' })
  if (result.status !== 0) throw new Error(result.stderr)
  return JSON.parse(result.stdout) as TrainerDefaults
}

describe('figures the training docs quote', () => {
  it("train smoke's steps, learning rate, temperature and warm-up", () => {
    const smoke = smokeDefaults()
    expect(trainReadme).toContain(`${smoke.steps} GRPO steps of 16 completions at learning rate ${figure(smoke.learningRate)}`)
    expect(trainReadme).toContain(`temperature ${smoke.temperature}`)
    expect(trainReadme).toContain(`\`warmup_steps\` (${smoke.warmupSteps})`)
    expect(trainReadme).toContain(`${smoke.warmupSteps} supervised warm-up steps`)
    expect(trainReadme).toContain(
      `(4 steps of 4 prompts × 4 completions, lr ${figure(smoke.learningRate)}, temperature ${smoke.temperature}`,
    )
    expect(smoke.steps).toBe(4)
  })

  it("train_grpo.py's default model, smoke budget and vLLM share", () => {
    const { parser, smoke } = trainerDefaults()
    expect(trainReadme).toContain(`default model \`${parser.model_name}\``)
    expect(trainReadme).toContain(`the measured budget of one round: ${smoke.max_completion_length} tokens`)
    expect(trainReadme).toContain(`(TRL's default ${parser.vllm_gpu_memory_utilization})`)
    expect(smoke.max_tool_calling_iterations).toBe(1)
    expect(trainReadme).toContain('one tool round')
  })

  it('the VeRL full preset as its README states it', () => {
    const full = presetSettings({ preset: 'full', kind: 'rloo', arena: false, given: {} }).settings
    const arena = presetSettings({ preset: 'full', kind: 'rloo', arena: true, given: {} }).settings
    const smoke = presetSettings({ preset: 'smoke', kind: 'rloo', arena: false, given: {} }).settings
    expect(verlReadme).toContain(
      `${full.total_training_steps} steps, a checkpoint every ${full.save_freq} and validation every ${full.test_freq}, ${full.train_batch_size} prompts a step (${arena.train_batch_size} for the Arena, ${arena.rollout_n} samples each)`,
    )
    expect(Number(full.train_batch_size) / Number(full.ppo_mini_batch_size)).toBe(4)
    expect(verlReadme).toContain(
      `(${smoke.total_training_steps} steps, checkpoint and validation every step, ${smoke.train_batch_size} prompts)`,
    )
  })
})
