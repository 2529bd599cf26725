/**
 * The `trajectory` mixture family: two datasets' trajectory SFT releases (issue 7's format, loaded and fully
 * validated with its loader) mixed into one SFT input: rows kept as exported plus `mixture_provenance`,
 * deterministic whatever the input order, validated on write; inputs with different thinking flags are
 * refused; and the mixture is accepted by `verl config --kind sft`, whose preflight reads it for the token
 * budget.
 */
import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { demoDatasetName } from '../src/envs/grading/demo/demo-taxonomy.js'
import { verlVisibleTools } from '../src/eval/gate/verl-visible-tools.js'
import { sha256Hex } from '../src/io/sha256.js'
import { demoLayout } from '../src/release/demo/write-demo-data.js'
import { runMixtureBuild } from '../src/release/mixtures/run-mixture-build.js'
import { readTrajectoryMixtureRows, trajectoryMixtureColumns } from '../src/release/mixtures/trajectory-family.js'
import { runDemoPipeline } from '../src/release/pipeline/run-pipeline.js'
import { runTrajectoryExport } from '../src/release/trajectories/run-trajectory-export.js'
import { runVerlPreflight } from '../src/train/verl/run-verl-preflight.js'
import { gradingToolSchemas } from '../src/train/verl/task-bundle.js'
import { runVerlConfig } from '../src/train/verl/write-verl-config.js'
import { temporaryDirectory, thrown, treeHashes } from './support/release-fixture.js'
import { fakeMachine } from './verl-fixture.js'

const second = 'steel_b'
let root: string
let files: { registry: string; corpus: string; taskConfig: string; gradingManifest: string }
const plain: Record<string, string> = {}
let thinking: string

beforeAll(async () => {
  root = temporaryDirectory('trajectory-mixture')
  const out = join(root, 'line')
  await runDemoPipeline({ out, rows: 160 })
  const demo = (relative: string) => join(out, 'demo', relative)
  const task = join(root, 'task')
  mkdirSync(task)
  copyFileSync(demo(demoLayout.grading), join(task, 'grading.json'))
  const pin = { path: 'grading.json', sha256: sha256Hex(readFileSync(join(task, 'grading.json'))) }
  writeFileSync(join(task, 'manifest.json'), JSON.stringify({ datasets: { [demoDatasetName]: pin, [second]: pin } }))
  files = {
    registry: demo(demoLayout.registry),
    corpus: demo(demoLayout.corpus),
    taskConfig: demo(demoLayout.task),
    gradingManifest: join(task, 'manifest.json'),
  }
  const canonical = join(out, 'run/canonical', demoDatasetName, 'all.json')
  for (const dataset of [demoDatasetName, second]) {
    plain[dataset] = join(root, 'trajectories', dataset)
    await runTrajectoryExport({ dataset, ...files, canonical, outputDir: plain[dataset] as string, thinkSource: 'none' })
  }
  thinking = join(root, 'trajectories-think', second)
  await runTrajectoryExport({ dataset: second, ...files, canonical, outputDir: thinking, thinkSource: 'mock' })
}, 180_000)

describe('mixture build --family trajectory', () => {
  it('mixes two trajectory releases deterministically, rows intact plus provenance, and validates them', async () => {
    const first = join(root, 'mix-1')
    const report = await runMixtureBuild({
      family: 'trajectory',
      inputs: [`${demoDatasetName}=${plain[demoDatasetName]}`, `${second}=${plain[second]}`],
      ...files,
      outputDir: first,
    })
    expect(report.validation.valid, JSON.stringify(report.validation)).toBe(true)
    expect(report).toMatchObject({
      family: 'trajectory',
      trajectory_format: 'qwen3.5-native-tools-v2',
      enable_thinking: false,
      datasets: [second, demoDatasetName],
    })
    const again = join(root, 'mix-2')
    await runMixtureBuild({
      family: 'trajectory',
      inputs: [`${second}=${plain[second]}`, `${demoDatasetName}=${plain[demoDatasetName]}`],
      ...files,
      outputDir: again,
    })
    expect(treeHashes(again)).toEqual(treeHashes(first))

    const columns = trajectoryMixtureColumns(verlVisibleTools(gradingToolSchemas()), report.task.metadata_fields)
    const { rows } = readTrajectoryMixtureRows(join(first, 'train.parquet'), columns)
    const source = JSON.parse(readFileSync(join(plain[demoDatasetName] as string, 'export_report.json'), 'utf8'))
    expect(rows.length).toBe(2 * source.splits.train.rows)
    const sample = rows.find((row) => row.dataset === second) as Record<string, unknown> & {
      mixture_provenance: Record<string, unknown>
      messages: { role: string }[]
    }
    expect(sample.mixture_provenance).toMatchObject({
      dataset: second,
      replica: 0,
      original_source_sha256: sha256Hex(String(sample.source_id)),
    })
    expect(sample.mixture_provenance.mixture_id).toMatch(new RegExp(`^mix:${second}:[0-9a-f]{20}:0000$`))
    expect(sample.messages[0]?.role).toBe('system')
    expect(sample.messages.at(-1)?.role).toBe('assistant')
    expect(new Set(rows.map((row) => row.dataset))).toEqual(new Set([demoDatasetName, second]))
  })

  it('refuses inputs exported with different thinking flags', async () => {
    const error = await thrown(() =>
      runMixtureBuild({
        family: 'trajectory',
        inputs: [`${demoDatasetName}=${plain[demoDatasetName]}`, `${second}=${thinking}`],
        ...files,
        outputDir: join(root, 'never'),
      }),
    )
    expect(error.code).toBe('mixture_thinking_mismatch')
  })

  it('refuses a trajectory release whose rows were tampered with (the issue-7 loader validates in full)', async () => {
    const copy = join(root, 'tampered')
    cpSync(plain[second] as string, copy, { recursive: true })
    copyFileSync(join(copy, 'val.parquet'), join(copy, 'test.parquet'))
    const report = JSON.parse(readFileSync(join(copy, 'export_report.json'), 'utf8'))
    report.release.artifacts_sha256['test.parquet'] = sha256Hex(readFileSync(join(copy, 'test.parquet')))
    writeFileSync(join(copy, 'export_report.json'), JSON.stringify(report, null, 2))
    const error = await thrown(() =>
      runMixtureBuild({
        family: 'trajectory',
        inputs: [`${demoDatasetName}=${plain[demoDatasetName]}`, `${second}=${copy}`],
        ...files,
        outputDir: join(root, 'never-2'),
      }),
    )
    expect(error.code).toMatch(/invalid_trajectory_release|mixture_input_invalid/)
  })

  it('is an SFT input for verl config, and preflight reads it for the token budget', async () => {
    const mixture = join(root, 'mix-verl')
    await runMixtureBuild({
      family: 'trajectory',
      inputs: [`${demoDatasetName}=${plain[demoDatasetName]}`, `${second}=${plain[second]}`],
      ...files,
      outputDir: mixture,
    })
    const machine = fakeMachine()
    const run = join(temporaryDirectory('verl-run'), 'run')
    const config = await runVerlConfig({
      release: mixture,
      outputDir: run,
      task: files,
      settings: { kind: 'sft', model_path: machine.model, python: machine.python },
    })
    expect(config.release).toMatchObject({
      kind: 'trajectory-mixture',
      enable_thinking: false,
      datasets: [second, demoDatasetName],
    })
    const manifest = await runVerlPreflight({
      runDirectory: run,
      patchList: machine.patchList,
      nvidiaSmi: machine.nvidiaSmi,
      host: { minGpuMemoryGib: 80 },
    })
    expect(manifest.failed).toEqual([])
    const budget = manifest.checks.find((check) => check.name === 'token_budget')?.facts as {
      splits: Record<string, { rows: number }>
    }
    const task = JSON.parse(readFileSync(join(run, 'task.json'), 'utf8')) as { metadata_fields: string[] }
    expect(budget.splits.train?.rows).toBe(
      readTrajectoryMixtureRows(
        join(mixture, 'train.parquet'),
        trajectoryMixtureColumns(verlVisibleTools(gradingToolSchemas()), task.metadata_fields),
      ).rows.length,
    )
  })
})
