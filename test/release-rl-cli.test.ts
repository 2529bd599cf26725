/**
 * The RL release line from the command line, as the runbook runs it (§5): `release rl export` →
 * `release rl validate` → `release mixture build --family rl-cascade` → `release rl validate-cascade`,
 * each in a child process; exit codes 0 / 1 (invalid) / 2 (bad input, nothing written).
 */
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { demoDatasetName } from '../src/envs/grading/demo/demo-taxonomy.js'
import { demoLayout } from '../src/release/demo/write-demo-data.js'
import { runDemoPipeline } from '../src/release/pipeline/run-pipeline.js'
import { temporaryDirectory } from './support/release-fixture.js'
import { runCli } from './support/run-cli.js'

let root: string
let task: string[]
let canonical: string

beforeAll(async () => {
  root = temporaryDirectory('rl-cli')
  await runDemoPipeline({ out: join(root, 'line'), rows: 160 })
  const demo = (relative: string) => join(root, 'line', 'demo', relative)
  task = [
    '--registry',
    demo(demoLayout.registry),
    '--corpus',
    demo(demoLayout.corpus),
    '--task-config',
    demo(demoLayout.task),
    '--grading-manifest',
    demo(demoLayout.gradingManifest),
  ]
  canonical = join(root, 'line', 'run/canonical', demoDatasetName, 'all.json')
}, 120_000)

describe('releaseops release rl / mixture', () => {
  it('exports, validates, mixes and validates the cascade; a changed cascade exits 1', () => {
    const release = join(root, 'rl', demoDatasetName)
    const exported = runCli([
      'release',
      'rl',
      'export',
      '--dataset',
      demoDatasetName,
      ...task,
      '--canonical',
      canonical,
      '--out-dir',
      release,
    ])
    expect(exported.status, exported.stderr).toBe(0)
    expect(JSON.parse(exported.stdout)).toMatchObject({ label_gap_gate: 'passed' })
    const validated = runCli([
      'release',
      'rl',
      'validate',
      '--dataset',
      demoDatasetName,
      ...task,
      '--dataset-dir',
      release,
      '--report',
      join(root, 'rl.validation.json'),
    ])
    expect(validated.status, validated.stderr).toBe(0)
    expect(JSON.parse(readFileSync(join(root, 'rl.validation.json'), 'utf8')).valid).toBe(true)

    const mixture = join(root, 'mix')
    const mixed = runCli([
      'release',
      'mixture',
      'build',
      '--family',
      'rl-cascade',
      '--input',
      `${demoDatasetName}=${release}`,
      ...task,
      '--out-dir',
      mixture,
    ])
    expect(mixed.status, mixed.stderr).toBe(0)
    expect(JSON.parse(mixed.stdout)).toMatchObject({ family: 'rl-cascade', datasets: [demoDatasetName], valid: true })
    const cascade = [
      'release',
      'rl',
      'validate-cascade',
      '--dataset-dir',
      mixture,
      ...task,
      '--input',
      `${demoDatasetName}=${release}`,
    ]
    const valid = runCli([...cascade, '--report', join(mixture, 'validation.json')])
    expect(valid.status, valid.stderr).toBe(0)
    expect(JSON.parse(readFileSync(join(mixture, 'validation.json'), 'utf8'))).toMatchObject({
      valid: true,
      family: 'rl-cascade',
    })

    copyFileSync(join(mixture, 'train.parquet'), join(mixture, 'val.parquet'))
    const broken = runCli(cascade)
    expect(broken.status).toBe(1)
    expect(JSON.parse(broken.stdout)).toMatchObject({ valid: false })
  })

  it('a grading manifest that no longer matches the grading bytes stops the mixture with exit 2 and writes nothing', () => {
    const release = join(root, 'rl-2')
    expect(
      runCli(['release', 'rl', 'export', '--dataset', demoDatasetName, ...task, '--canonical', canonical, '--out-dir', release])
        .status,
    ).toBe(0)
    const manifestPath = task[task.indexOf('--grading-manifest') + 1] as string
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
    const gradingPath = join(manifestPath, '..', manifest.datasets[demoDatasetName].path)
    const original = readFileSync(gradingPath)
    writeFileSync(gradingPath, Buffer.concat([original, Buffer.from(' ')]))
    try {
      const output = join(root, 'mix-bad')
      const run = runCli([
        'release',
        'mixture',
        'build',
        '--family',
        'rl-cascade',
        '--input',
        `${demoDatasetName}=${release}`,
        ...task,
        '--out-dir',
        output,
      ])
      expect(run.status).toBe(2)
      expect(run.stderr).toMatch(/error\[[a-z_]*sha256[a-z_]*\]|error\[[a-z_]*hash[a-z_]*\]/)
      expect(existsSync(output)).toBe(false)
    } finally {
      writeFileSync(gradingPath, original)
    }
  })
})
