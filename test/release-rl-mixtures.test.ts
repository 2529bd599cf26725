/**
 * RL releases and mixtures on the demo line: `rl export` writes a stage1/stage2 pair per record in exactly
 * the five VeRL columns and validates back; the grading manifest's sha256 is checked against the exact
 * grading bytes (a one-byte change is refused before anything is written); two datasets mix
 * deterministically (byte-identical whatever the input order or location) for `rl-cascade` and `sft`;
 * `rl validate-cascade` accepts the mixture and catches a tampered one.
 */
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { demoDatasetName } from '../src/envs/grading/demo/demo-taxonomy.js'
import { sha256Hex } from '../src/io/sha256.js'
import { demoLayout } from '../src/release/demo/write-demo-data.js'
import { runMixtureBuild } from '../src/release/mixtures/run-mixture-build.js'
import { runValidateCascade } from '../src/release/mixtures/validate-cascade.js'
import { readParquetRows } from '../src/release/parquet/parquet-rows.js'
import { runDemoPipeline } from '../src/release/pipeline/run-pipeline.js'
import { readRlParquet, rlParquetColumns, writeRlParquet } from '../src/release/rl/rl-parquet.js'
import type { RlRow } from '../src/release/rl/rl-row.js'
import { runRlExport } from '../src/release/rl/run-rl-export.js'
import { runRlValidate } from '../src/release/rl/run-rl-validate.js'
import { runSftExport } from '../src/release/sft/run-sft-export.js'
import { temporaryDirectory, thrown, treeHashes } from './support/release-fixture.js'

const second = 'steel_b'
let root: string
let canonical: string
let files: { registry: string; corpus: string; taskConfig: string; gradingManifest: string }
let rl: Record<string, string>
let sft: Record<string, string>

beforeAll(async () => {
  root = temporaryDirectory('rl-mixtures')
  const out = join(root, 'line')
  await runDemoPipeline({ out, rows: 160 })
  const demo = (relative: string) => join(out, 'demo', relative)
  // A two-dataset manifest: each dataset pins its own copy of the grading standard.
  const task = join(root, 'task')
  mkdirSync(task)
  copyFileSync(demo(demoLayout.grading), join(task, 'grading-a.json'))
  copyFileSync(demo(demoLayout.grading), join(task, 'grading-b.json'))
  const pin = (name: string) => ({ path: name, sha256: sha256Hex(readFileSync(join(task, name))) })
  writeFileSync(
    join(task, 'manifest.json'),
    JSON.stringify({ datasets: { [demoDatasetName]: pin('grading-a.json'), [second]: pin('grading-b.json') } }),
  )
  files = {
    registry: demo(demoLayout.registry),
    corpus: demo(demoLayout.corpus),
    taskConfig: demo(demoLayout.task),
    gradingManifest: join(task, 'manifest.json'),
  }
  canonical = join(out, 'run/canonical', demoDatasetName, 'all.json')
  rl = {}
  sft = {}
  for (const dataset of [demoDatasetName, second]) {
    rl[dataset] = join(root, 'rl', dataset)
    sft[dataset] = join(root, 'sft', dataset)
    await runRlExport({ dataset, ...files, canonical, outputDir: rl[dataset] as string })
    await runSftExport({ dataset, ...files, canonical, outputDir: sft[dataset] as string })
  }
}, 120_000)

describe('rl export', () => {
  it('writes exactly the five VeRL columns, a stage1/stage2 pair per record, and validates back', async () => {
    const directory = rl[demoDatasetName] as string
    const report = JSON.parse(readFileSync(join(directory, 'export_report.json'), 'utf8'))
    expect(report).toMatchObject({
      format: 'verl_rl_parquet',
      trajectory_format: 'qwen3.5-native-tools-v2',
      dataset: demoDatasetName,
      release: { status: 'passed' },
    })
    const file = await readParquetRows(
      join(directory, 'train.parquet'),
      rlParquetColumns({
        metadataFields: ['field_name', 'table_name', 'field_description', 'table_description'],
        candidates: true,
      }),
    )
    expect(file.sha256).toBe(report.release.artifacts_sha256['train.parquet'])
    const rows = file.rows as {
      data_source: string
      prompt: { role: string }[]
      ability: string
      reward_model: { style: string; ground_truth: string }
      extra_info: Record<string, unknown>
    }[]
    expect(rows.length).toBe(report.splits.train.rows)
    expect(rows.length).toBe(2 * report.splits.train.records)
    for (const row of rows) {
      expect(Object.keys(row).sort()).toEqual(['ability', 'data_source', 'extra_info', 'prompt', 'reward_model'])
      expect(row.prompt.map((message) => message.role)).toEqual(['system', 'user'])
      expect(row.reward_model.style).toBe('rule')
      expect(row.data_source).toBe(`${demoDatasetName}/${row.extra_info.stage}`)
      expect(JSON.stringify(row.prompt)).not.toContain(row.reward_model.ground_truth)
    }
    const stages = new Map<string, string[]>()
    for (const row of rows)
      stages.set(String(row.extra_info.source_id), [
        ...(stages.get(String(row.extra_info.source_id)) ?? []),
        String(row.extra_info.stage),
      ])
    expect([...stages.values()].every((pair) => pair.sort().join() === 'stage1,stage2')).toBe(true)
    const validation = await runRlValidate({ dataset: demoDatasetName, ...files, datasetDir: directory })
    expect(validation.valid).toBe(true)
  })
})

describe('rl validate', () => {
  it('names a row whose prompt leaks or drifts, and an artifact that no longer hashes as reported', async () => {
    const copy = join(root, 'rl-tampered')
    cpSync(rl[demoDatasetName] as string, copy, { recursive: true })
    const fields = ['field_name', 'table_name', 'field_description', 'table_description']
    const path = join(copy, 'val.parquet')
    const rows = (await readRlParquet(path, { metadataFields: fields, candidates: true })).rows as unknown as RlRow[]
    const target = rows.findIndex((row) => row.extra_info.stage === 'stage1')
    const row = rows[target] as RlRow
    const user = row.prompt[1] as RlRow['prompt'][number]
    rows[target] = {
      ...row,
      prompt: [
        row.prompt[0] as RlRow['prompt'][number],
        { ...user, content: `${user.content} ${row.reward_model.ground_truth}` },
      ],
    }
    rmSync(path)
    const digest = writeRlParquet({ path, rows, metadataFields: fields, candidates: true })
    const report = await runRlValidate({ dataset: demoDatasetName, ...files, datasetDir: copy })
    expect(report.valid).toBe(false)
    const errors = report.splits.val?.errors.join('\n') ?? ''
    expect(errors).toMatch(new RegExp(`row ${target}.*(prompt does not match|exposes the canonical category id)`))
    expect(report.report_errors.join('\n')).toContain(`val.parquet sha256 ${digest} does not match export_report.json`)
    expect(report.splits.train?.error_count).toBe(0)
  })
})

describe('mixture build', () => {
  const inputs = (family: 'rl' | 'sft', order: readonly string[] = [demoDatasetName, second]) =>
    order.map((dataset) => `${dataset}=${(family === 'rl' ? rl : sft)[dataset]}`)

  it('refuses a grading file changed by one byte, before writing anything', async () => {
    const task = join(root, 'tampered')
    cpSync(join(files.gradingManifest, '..'), task, { recursive: true })
    const grading = join(task, 'grading-b.json')
    const bytes = readFileSync(grading)
    const index = bytes.indexOf(0x20) >= 0 ? bytes.indexOf(0x20) : bytes.length - 1
    bytes[index] = bytes[index] === 0x20 ? 0x09 : 0x0a
    writeFileSync(grading, bytes)
    const output = join(root, 'never')
    const error = await thrown(() =>
      runMixtureBuild({
        family: 'rl-cascade',
        inputs: inputs('rl'),
        ...files,
        gradingManifest: join(task, 'manifest.json'),
        outputDir: output,
      }),
    )
    expect(error.code).toMatch(/sha256|hash/)
    expect(error.message).toMatch(/grading-b\.json|steel_b/)
    expect(treeHashes(output)).toEqual({})
  })

  it('mixes two datasets into rl-cascade deterministically, whatever the input order or location', async () => {
    const first = join(root, 'mix-rl-1')
    const report = await runMixtureBuild({ family: 'rl-cascade', inputs: inputs('rl'), ...files, outputDir: first })
    expect(report.validation.valid).toBe(true)
    expect(report.datasets).toEqual([demoDatasetName, second].sort())
    const moved = join(root, 'moved')
    cpSync(join(root, 'rl'), moved, { recursive: true })
    const again = join(root, 'mix-rl-2')
    await runMixtureBuild({
      family: 'rl-cascade',
      inputs: [`${second}=${join(moved, second)}`, `${demoDatasetName}=${join(moved, demoDatasetName)}`],
      ...files,
      outputDir: again,
    })
    expect(treeHashes(again)).toEqual(treeHashes(first))

    const file = await readParquetRows(
      join(first, 'train.parquet'),
      rlParquetColumns({ metadataFields: report.task.metadata_fields, candidates: false }),
    )
    const rows = file.rows as { data_source: string; extra_info: Record<string, unknown> }[]
    const source = JSON.parse(readFileSync(join(rl[demoDatasetName] as string, 'export_report.json'), 'utf8'))
    expect(rows.length).toBe(2 * source.splits.train.records)
    expect(new Set(rows.map((row) => row.extra_info.stage))).toEqual(new Set(['stage1']))
    for (const row of rows) {
      expect(row.extra_info.source_id).toMatch(new RegExp(`^mix:${String(row.extra_info.dataset)}:[0-9a-f]{20}:0000$`))
      expect(row.data_source).toBe(`${String(row.extra_info.dataset)}/stage1`)
      expect(Object.keys(row.extra_info).sort()).toEqual([
        'dataset',
        'ground_truth_level',
        'metadata',
        'source_id',
        'stage',
        'trajectory_format',
      ])
    }
    // Both datasets interleave (order is by sha256, not by dataset).
    const datasets = rows.map((row) => row.extra_info.dataset)
    expect(datasets.slice(0, 20)).toContain(second)
    expect(datasets.slice(0, 20)).toContain(demoDatasetName)

    const valid = await runValidateCascade({ ...files, datasetDir: first, inputs: inputs('rl') })
    expect(valid.valid, JSON.stringify(valid)).toBe(true)
  })

  it('validate-cascade catches a mixture whose artifact or lineage changed', async () => {
    const directory = join(root, 'mix-rl-tamper')
    await runMixtureBuild({ family: 'rl-cascade', inputs: inputs('rl'), ...files, outputDir: directory })
    const copy = join(root, 'mix-rl-tamper-copy')
    cpSync(directory, copy, { recursive: true })
    copyFileSync(join(copy, 'val.parquet'), join(copy, 'test.parquet'))
    const broken = await runValidateCascade({ ...files, datasetDir: copy })
    expect(broken.valid).toBe(false)
    expect(broken.splits.test?.errors.join('\n')).toMatch(/sha256|order|episodes/)
    const lineage = await runValidateCascade({ ...files, datasetDir: directory, inputs: inputs('sft') })
    expect(lineage.valid).toBe(false)
    expect(lineage.lineage_errors.length).toBeGreaterThan(0)
  })

  it('sft keeps the legacy stage pairs with mixture provenance, deterministically; a sqrt mixture validates too', async () => {
    const first = join(root, 'mix-sft-1')
    const report = await runMixtureBuild({ family: 'sft', inputs: inputs('sft'), ...files, outputDir: first })
    expect(report.validation.valid).toBe(true)
    const again = join(root, 'mix-sft-2')
    await runMixtureBuild({ family: 'sft', inputs: inputs('sft', [second, demoDatasetName]), ...files, outputDir: again })
    expect(treeHashes(again)).toEqual(treeHashes(first))
    expect(report.splits.train?.rows).toBe(
      2 * ((report.splits.train?.source_counts[demoDatasetName] ?? 0) + (report.splits.train?.source_counts[second] ?? 0)),
    )
    const sqrt = await runMixtureBuild({
      family: 'sft',
      inputs: inputs('sft'),
      ...files,
      outputDir: join(root, 'mix-sft-sqrt'),
      sampling: 'sqrt',
    })
    expect(sqrt.validation.valid).toBe(true)
    expect(sqrt.sampling.policy).toBe('sqrt')
  })

  it('refuses an RL release given to the sft family (wrong input format), with a coded error', async () => {
    const error = await thrown(() =>
      runMixtureBuild({ family: 'sft', inputs: inputs('rl'), ...files, outputDir: join(root, 'never-2') }),
    )
    expect(error.code).toBe('mixture_input_invalid')
    expect(error.issues.some((issue) => issue.path.endsWith(':format'))).toBe(true)
  })
})
