/**
 * @module release/mixtures: `releaseops release mixture build --family sft|rl-cascade|trajectory`. Every
 * input is checked before anything is written: the grading manifest's sha256 against the exact grading
 * bytes of each dataset, each input's report (passed, validated, no waiver, same task files, the pinned
 * grading standard) and artifact hashes, and every input row. The mixture is written to a staging
 * directory, validated as a consumer would (`validateMixtureRelease`), and only then published.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'
import { isNonEmptyDirectory, outputExistsError } from '../../io/publish-directory.js'
import { splitNames } from '../contracts/canonical-record.js'
import { publishedRelease } from '../contracts/export-report-parts.js'
import type { ReleaseExportSteps } from '../contracts/release-kind.js'
import { exportRelease } from '../kinds/export-release.js'
import { writeParquetRows } from '../parquet/parquet-rows.js'
import type { MaterializedSplit } from './materialize-split.js'
import { mixtureFamilyBuilder } from './mixture-family-builders.js'
import { type InputRelease, parseMixtureInputs, readInputRelease } from './mixture-inputs.js'
import type { SamplingPolicy } from './mixture-plan.js'
import { type MixtureFamily, type MixtureReport, mixtureReleaseFormat } from './mixture-report.js'
import { loadMixtureTasks, type MixtureTaskFiles, type MixtureTasks } from './mixture-tasks.js'
import { validateMixtureRelease } from './validate-mixture-release.js'

export interface RunMixtureBuildOptions extends MixtureTaskFiles {
  family: MixtureFamily
  /** `DATASET=DIR`, one per input release. */
  inputs: readonly string[]
  outputDir: string
  sampling?: SamplingPolicy
  failedAudit?: string
}

function buildReport(options: {
  extras: Record<string, unknown>
  family: MixtureFamily
  trajectoryFormat: string | undefined
  rowFormat: string
  policy: SamplingPolicy
  tasks: MixtureTasks
  inputs: readonly InputRelease[]
  splits: Record<string, MaterializedSplit<unknown> & { parquet_sha256: string }>
}): MixtureReport {
  const splits: MixtureReport['splits'] = {}
  for (const split of splitNames) {
    const materialized = options.splits[split] as MaterializedSplit<unknown> & { parquet_sha256: string }
    splits[split] = {
      rows: materialized.rows.length,
      parquet_sha256: materialized.parquet_sha256,
      input_source_counts: materialized.input_source_counts,
      source_counts: materialized.source_counts,
      achieved_weights: materialized.achieved_weights,
    }
  }
  const train = splits.train as MixtureReport['splits'][string]
  return {
    format: mixtureReleaseFormat,
    family: options.family,
    ...(options.trajectoryFormat ? { trajectory_format: options.trajectoryFormat } : {}),
    ...options.extras,
    datasets: options.inputs.map((input) => input.dataset),
    row_format: options.rowFormat,
    release: publishedRelease(splits),
    label_gap_gate: { status: 'passed', blocking: [], waived: [], blocking_levels: [], waived_levels: [] },
    sampling: {
      policy: options.policy,
      train_input_source_counts: train.input_source_counts,
      train_source_counts: train.source_counts,
      train_achieved_weights: train.achieved_weights,
    },
    id_policy: 'mix:<dataset>:<sha256(source_id)[:20]>:<cycle:04d>; rows ordered by sha256(split, id, stage)',
    official_evaluation: 'each dataset’s own val/test release; mixture val/test are passthrough',
    task: options.tasks.task,
    grading_manifest: options.tasks.manifest,
    inputs: Object.fromEntries(
      options.inputs.map((input) => [
        input.dataset,
        { format: input.format, export_report_sha256: input.exportReportSha256, parquet_sha256: input.parquetSha256 },
      ]),
    ),
    splits,
    validation: {
      format: 'pending',
      valid: false,
      family: options.family,
      datasets: [],
      splits: {},
      cross_split_errors: [],
      report_errors: [],
      lineage_errors: [],
    },
  }
}

/** What the mixture build checked and read before writing. */
export interface MixtureBuildPlan {
  options: RunMixtureBuildOptions
  policy: SamplingPolicy
  specs: ReturnType<typeof parseMixtureInputs>
  tasks: MixtureTasks
  builder: ReturnType<typeof mixtureFamilyBuilder>
  inputs: InputRelease[]
}

async function planMixtureBuild(options: RunMixtureBuildOptions): Promise<MixtureBuildPlan> {
  if (isNonEmptyDirectory(options.outputDir)) throw outputExistsError(options.outputDir)
  const policy = options.sampling ?? 'passthrough'
  const specs = parseMixtureInputs(options.inputs)
  const tasks = loadMixtureTasks({ ...options, datasets: specs.map((spec) => spec.dataset) })
  const builder = mixtureFamilyBuilder(options.family, tasks)
  const inputs = specs.map((spec) => {
    const pinned = tasks.manifest.datasets[spec.dataset] as MixtureTasks['manifest']['datasets'][string]
    return readInputRelease(spec, {
      format: builder.inputFormat,
      grading: { sha256: pinned.sha256, levels: pinned.levels, gtField: pinned.gt_field },
      task: {
        registry: tasks.task.registry_sha256,
        corpus: tasks.task.corpus_sha256,
        taskConfig: tasks.task.task_config_sha256,
      },
    })
  })
  for (const spec of specs) await builder.read(spec)
  return { options, policy, specs, tasks, builder, inputs }
}

/** Materializes and writes every split and the report into `staging`, then validates it as a consumer would. */
async function writeMixtureRelease(plan: MixtureBuildPlan, staging: string): Promise<MixtureReport> {
  const { options, policy, specs, tasks, builder, inputs } = plan
  const splits: Record<string, MaterializedSplit<unknown> & { parquet_sha256: string }> = {}
  for (const split of splitNames) {
    const materialized = builder.materialize(split, policy)
    const path = join(staging, `${split}.parquet`)
    const rows = materialized.rows as Record<string, unknown>[]
    const parquet_sha256 = builder.validator.io
      ? builder.validator.io.write(path, rows)
      : writeParquetRows({ path, columns: builder.validator.columns, rows })
    splits[split] = { ...materialized, parquet_sha256 }
  }
  const report = buildReport({
    extras: builder.reportExtras?.() ?? {},
    family: options.family,
    trajectoryFormat: builder.validator.trajectoryFormat,
    rowFormat: builder.rowFormat,
    policy,
    tasks,
    inputs,
    splits,
  })
  const reportPath = join(staging, 'export_report.json')
  writeFileSync(reportPath, `${JSON.stringify(report, null, 2)}\n`)
  const validation = await validateMixtureRelease({ directory: staging, validator: builder.validator, tasks, inputs: specs })
  if (!validation.valid) {
    const failing = Object.entries(validation.splits).find(([, details]) => details.error_count > 0)
    throw new ReleaseOpsError({
      code: 'staged_release_invalid',
      path: options.outputDir,
      message: `The staged ${options.family} mixture failed validation: ${failing ? `${failing[0]}: ${failing[1].errors[0]}` : [...validation.report_errors, ...validation.cross_split_errors, ...validation.lineage_errors][0]}`,
    })
  }
  report.validation = validation
  writeFileSync(reportPath, `${JSON.stringify(report, null, 2)}\n`)
  return report
}

export const mixtureBuildSteps: ReleaseExportSteps<RunMixtureBuildOptions, MixtureBuildPlan, MixtureReport> = {
  stage: 'mixture build',
  plan: planMixtureBuild,
  write: writeMixtureRelease,
}

export async function runMixtureBuild(options: RunMixtureBuildOptions): Promise<MixtureReport> {
  return exportRelease(mixtureBuildSteps, options)
}
