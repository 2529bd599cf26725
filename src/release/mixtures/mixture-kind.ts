/**
 * @module release/mixtures: mixtures as a release kind: the family's input rows plus
 * `mixture_provenance`, read back and checked by the family's validator (`MixtureRowValidator`, which
 * wraps the mixed kind's row check), the whole release by `validateMixtureRelease`.
 */
import type { ReleaseKind } from '../contracts/release-kind.js'
import { readParquetRows } from '../parquet/parquet-rows.js'
import { mixtureFamilyBuilder } from './mixture-family-builders.js'
import type { MixtureInputSpec } from './mixture-inputs.js'
import { type MixtureFamily, type MixtureReport, type MixtureValidationReport, mixtureReleaseFormat } from './mixture-report.js'
import type { MixtureTasks } from './mixture-tasks.js'
import { type MixtureBuildPlan, mixtureBuildSteps, type RunMixtureBuildOptions, runMixtureBuild } from './run-mixture-build.js'
import { type MixtureRowValidator, validateMixtureRelease } from './validate-mixture-release.js'

export interface MixtureValidateOptions {
  directory: string
  family: MixtureFamily
  tasks: MixtureTasks
  inputs?: readonly MixtureInputSpec[]
}

export const mixtureKind: ReleaseKind<{
  options: RunMixtureBuildOptions
  plan: MixtureBuildPlan
  report: MixtureReport
  source: { family: MixtureFamily; tasks: MixtureTasks }
  context: MixtureRowValidator
  validate: MixtureValidateOptions
  validation: MixtureValidationReport
}> = {
  ...mixtureBuildSteps,
  command: 'mixture',
  format: mixtureReleaseFormat,
  export: runMixtureBuild,
  rowContext: (source) => mixtureFamilyBuilder(source.family, source.tasks).validator,
  columns: (validator) => validator.columns,
  readRows: async (path, validator) =>
    (validator.io ? await validator.io.read(path) : await readParquetRows(path, validator.columns)).rows,
  checkRow: (row, validator) => validator.check(row, validator.key(row)?.dataset ?? ''),
  validate: (options) =>
    validateMixtureRelease({
      directory: options.directory,
      validator: mixtureFamilyBuilder(options.family, options.tasks).validator,
      tasks: options.tasks,
      ...(options.inputs ? { inputs: options.inputs } : {}),
    }),
}
