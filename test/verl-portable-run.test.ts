/**
 * Issue 37 item 2: `verl config --preset full|smoke` says every value it chose and why, and a run
 * directory is portable: moved together with its release, it passes `verl preflight` from the new place
 * with a launch command naming only new paths; `--root` writes the overrides for the GPU box's path.
 */
import { readFileSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runVerlPreflight } from '../src/train/verl/run-verl-preflight.js'
import type { VerlConfig } from '../src/train/verl/write-verl-config.js'
import { temporaryDirectory } from './support/release-fixture.js'
import { runCliInProcess } from './support/run-cli-in-process.js'
import { type FakeMachine, fakeMachine, type VerlReleases, verlReleases } from './verl-fixture.js'

let releases: VerlReleases
let machine: FakeMachine

beforeAll(async () => {
  releases = await verlReleases(120)
  machine = fakeMachine()
}, 300_000)

const readConfig = (run: string) => JSON.parse(readFileSync(join(run, 'verl_config.json'), 'utf8')) as VerlConfig

function configArgs(run: string, extra: string[] = []): string[] {
  const { files } = releases
  return [
    'verl',
    'config',
    '--kind',
    'sft',
    '--release',
    releases.trajectory,
    '--model-path',
    machine.model,
    '--python',
    machine.python,
    '--registry',
    files.registry,
    '--corpus',
    files.corpus,
    '--task-config',
    files.taskConfig,
    '--grading-manifest',
    files.gradingManifest,
    '--out-dir',
    run,
    ...extra,
  ]
}

describe('verl config presets', () => {
  it('full is the default: sized for one GPU, every value printed on stderr with its reason', async () => {
    const run = join(releases.root, 'runs', 'full')
    const result = await runCliInProcess(configArgs(run))
    expect(result.status, result.stderr).toBe(0)
    const { settings } = readConfig(run)
    expect(settings).toMatchObject({ total_training_steps: 200, save_freq: 50, test_freq: 25, train_batch_size: 32 })
    expect(settings.train_batch_size / settings.ppo_mini_batch_size).toBe(4)
    expect(result.stderr).toContain('verl config: preset full')
    for (const key of Object.keys(settings)) expect(result.stderr).toMatch(new RegExp(`^  ${key} `, 'm'))
    expect(result.stderr).toMatch(/total_training_steps\s+200\s+\(preset: full: 200 steps/)
    expect(result.stderr).toMatch(/max_length\s+9216\s+\(default:/)
    // stdout stays the one JSON summary line.
    expect(JSON.parse(result.stdout)).toMatchObject({ kind: 'sft' })
  })

  it('smoke is the tiny CI run; a given value wins over the preset and says so', async () => {
    const run = join(releases.root, 'runs', 'smoke')
    const result = await runCliInProcess(configArgs(run, ['--preset', 'smoke', '--steps', '5']))
    expect(result.status, result.stderr).toBe(0)
    expect(readConfig(run).settings).toMatchObject({
      total_training_steps: 5,
      save_freq: 1,
      test_freq: 1,
      train_batch_size: 4,
      ppo_mini_batch_size: 4,
    })
    expect(result.stderr).toMatch(/total_training_steps\s+5\s+\(given: given\)/)
  })
})

describe('a portable run directory', () => {
  it('moved with its release, passes preflight from the new place and launches with the new paths only', async () => {
    const before = releases.root
    const run = join(before, 'runs', 'moving')
    expect((await runCliInProcess(configArgs(run, ['--preset', 'smoke']))).status).toBe(0)
    const after = join(temporaryDirectory('verl-moved'), 'workspace')
    renameSync(before, after)
    releases = JSON.parse(JSON.stringify(releases).replaceAll(before, after)) as VerlReleases
    const manifest = await runVerlPreflight({
      runDirectory: join(after, 'runs', 'moving'),
      patchList: machine.patchList,
      nvidiaSmi: machine.nvidiaSmi,
      host: { minGpuMemoryGib: 80, gpuName: 'H200', minDriver: '550', cuda: '13.0' },
    })
    expect(manifest.failed).toEqual([])
    expect(manifest.status).toBe('passed')
    expect(manifest.command).toContain(`data.train_files=${join(after, 'trajectory', 'train.parquet')}`)
    expect(manifest.command).toContain(`RELEASEOPS_VERL_TASK=${join(after, 'runs', 'moving', 'task.json')}`)
    expect(manifest.command).not.toContain(before)
    expect(readFileSync(join(after, 'runs', 'moving', 'launch.sh'), 'utf8')).not.toContain(before)
  })

  it('--root writes the overrides for the GPU box path (absolute only)', async () => {
    const run = join(releases.root, 'runs', 'rooted')
    const result = await runCliInProcess(configArgs(run, ['--preset', 'smoke', '--root', '/srv/gpu/work/runs/rooted']))
    expect(result.status, result.stderr).toBe(0)
    const config = readConfig(run)
    expect(config.run_root).toBe('/srv/gpu/work/runs/rooted')
    expect(config.overrides).toContain('data.train_files=/srv/gpu/work/trajectory/train.parquet')
    expect(config.overrides).toContain('trainer.default_local_dir=/srv/gpu/work/runs/rooted/checkpoints')
    expect(config.environment.PYTHONPATH).toBe('/srv/gpu/work/runs/rooted')
    const relative = await runCliInProcess(configArgs(join(releases.root, 'runs', 'x'), ['--root', 'runs/x']))
    expect(relative.status).toBe(2)
    expect(relative.stderr).toContain('error[invalid_option] (--root)')
  })
})
