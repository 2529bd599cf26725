import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defaultEnvId, envRegistry } from '../envs/index.js'
import { runSteps } from './run-steps.js'
import { tinyModelFolders } from './smoke/tiny-model-settings.js'
import { trainingStartSchema } from './training-request.js'
import { prepareTrainingRun } from './training-run.js'

let outputs: string

beforeEach(async () => {
  outputs = await mkdtemp(join(tmpdir(), 'releaseops-steps-'))
})
afterEach(async () => {
  await rm(outputs, { recursive: true, force: true })
})

async function stepsFor(body: unknown, smokeModel?: string) {
  const run = await prepareTrainingRun({
    request: trainingStartSchema.parse(body),
    registry: envRegistry,
    defaultEnvId,
    outputsRoot: outputs,
    now: new Date('2026-01-02T03:04:05Z'),
    smokeModel,
  })
  const steps = await runSteps({ python: 'py', script: 'train_grpo.py', run, envUrl: 'http://127.0.0.1:9', outputsRoot: outputs })
  return { run, steps }
}

const flag = (command: string[], name: string) => command[command.indexOf(name) + 1]

describe('the steps of a run', () => {
  it('the smoke preset without a model builds, warms up, trains and probes the tiny local model', async () => {
    const { run, steps } = await stepsFor({ preset: 'smoke' })
    expect(steps.map((step) => step.name)).toEqual(['build tiny Qwen3', 'warm-up', 'GRPO', 'learning probe'])
    const warm = join(outputs, tinyModelFolders.warm)
    expect(run.parameters.model).toBe(warm)
    const [build, warmup, grpo, probe] = steps.map((step) => step.command)
    expect(build?.slice(0, 4)).toEqual(['py', '-u', '-m', 'releaseops_train.tiny_qwen3'])
    expect(flag(build as string[], '--hidden-size')).toBe('128')
    expect(flag(warmup as string[], '--steps')).toBe('200')
    expect(flag(warmup as string[], '--min-tool-call-rate')).toBe('0.5')
    expect(flag(warmup as string[], '--out')).toBe(warm)
    // The CLI smoke's GRPO settings (decision 0061): 4 steps of 4 prompts × 4, lr 5e-4, temperature 0.7, seed 7.
    expect(flag(grpo as string[], '--model-name')).toBe(warm)
    for (const [name, value] of [
      ['--max-steps', '4'],
      ['--num-generations', '4'],
      ['--per-device-train-batch-size', '16'],
      ['--learning-rate', '0.0005'],
      ['--temperature', '0.7'],
      ['--seed', '7'],
    ])
      expect(flag(grpo as string[], name as string), name).toBe(value)
    expect(probe?.filter((part) => part.startsWith('before=') || part.startsWith('after='))).toEqual([
      `before=${warm}`,
      `after=${join(run.runDir, 'final')}`,
    ])
    expect(flag(probe as string[], '--env-url')).toBe('http://127.0.0.1:9')
  })

  it('a warm model the cache vouches for is not made again; a different warm-up is', async () => {
    const first = await stepsFor({ preset: 'smoke', warmup_steps: 3, probe: false })
    expect(first.steps.map((step) => step.name)).toEqual(['build tiny Qwen3', 'warm-up', 'GRPO'])
    // The warm-up wrote its model and succeeded: its `after` stamps the cache.
    await mkdir(join(outputs, tinyModelFolders.warm), { recursive: true })
    await writeFile(join(outputs, tinyModelFolders.warm, 'model.safetensors'), '')
    await first.steps[1]?.after?.()
    const second = await stepsFor({ preset: 'smoke', warmup_steps: 3, probe: false })
    expect(second.steps.map((step) => step.name)).toEqual(['GRPO'])
    const other = await stepsFor({ preset: 'smoke', warmup_steps: 3, warmup_min_tool_call_rate: 0, probe: false })
    expect(other.steps.map((step) => step.name)).toEqual(['build tiny Qwen3', 'warm-up', 'GRPO'])
    expect(flag(other.steps[1]?.command as string[], '--min-tool-call-rate')).toBe('0')
    // Planning the other warm-up withdrew the stamp: the folder is about to be overwritten.
    expect((await stepsFor({ preset: 'smoke', warmup_steps: 3, probe: false })).steps).toHaveLength(3)
  })

  it('a named model, or a configured smoke model, is trained as is in one step', async () => {
    expect((await stepsFor({ preset: 'smoke', model_name: 'Qwen/Qwen3-0.6B' })).steps.map((step) => step.name)).toEqual(['GRPO'])
    const configured = await stepsFor({ preset: 'smoke' }, 'Qwen/Qwen3-1.7B')
    expect(configured.steps.map((step) => step.name)).toEqual(['GRPO'])
    expect(configured.run.parameters.model).toBe('Qwen/Qwen3-1.7B')
    expect((await stepsFor({ preset: 'pilot' })).run.parameters.model).toBe('Qwen/Qwen3-0.6B')
  })

  it('offline, a Hub model missing from the cache is refused before anything is written; the tiny model needs none', async () => {
    const environment = { HF_HUB_OFFLINE: '1', HF_HOME: join(outputs, 'hf') }
    const prepare = (body: unknown) =>
      prepareTrainingRun({
        request: trainingStartSchema.parse(body),
        registry: envRegistry,
        defaultEnvId,
        outputsRoot: outputs,
        now: new Date('2026-01-02T03:04:05Z'),
        trainerEnvironment: environment,
      })
    await expect(prepare({ preset: 'pilot' })).rejects.toMatchObject({ code: 'model_not_available', status: 422 })
    expect(existsSync(join(outputs, 'runs'))).toBe(false)
    expect((await prepare({ preset: 'smoke' })).parameters.tinyModel).toEqual({
      warmupSteps: 200,
      warmupMinToolCallRate: 0.5,
      probe: true,
    })
  })

  it('the tiny model’s settings are refused where there is no tiny model', () => {
    for (const body of [
      { preset: 'pilot', warmup_steps: 10 },
      { preset: 'smoke', model_name: 'Qwen/Qwen3-0.6B', probe: false },
      { preset: 'smoke', model_path: 'models/x', warmup_min_tool_call_rate: 0 },
    ]) {
      const parsed = trainingStartSchema.safeParse(body)
      expect(parsed.success, JSON.stringify(body)).toBe(false)
      expect(parsed.error?.issues[0]?.path).toEqual(['preset'])
    }
    expect(trainingStartSchema.safeParse({ preset: 'smoke', warmup_min_tool_call_rate: 1.5 }).success).toBe(false)
  })
})
