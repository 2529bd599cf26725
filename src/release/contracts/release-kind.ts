/**
 * @module release/contracts: a release kind (legacy SFT, RL, trajectories, mixtures), as one type. A
 * kind names its report format and Parquet columns; plans (every check that needs no output: the target,
 * the dataset, the task files, every input record, the gates) and then writes its splits and
 * `export_report.json` into a staging directory, which the export shell (`kinds/export-release.ts`)
 * publishes atomically; reads a split back with our reader; checks one row (coded issues whose `path` is
 * the field in the row); and validates a published release. The kind conformance suite runs every kind
 * through the same checks.
 */
import type { InputIssue } from '../../core/errors/invalid-input-error.js'
import type { ParquetField } from '../parquet/parquet-shape.js'
import type { ReleaseValidation } from './release-validation.js'

/** Where an export publishes, and where its failed audit goes instead when it fails. */
export interface ReleaseTarget {
  outputDir: string
  failedAudit?: string
}

/** What the export shell runs: plan first, then write into the staging directory. */
export interface ReleaseExportSteps<Options extends ReleaseTarget, Plan, Report> {
  /** The stage named in the failed-audit file (`sft export`, `mixture build`, …). */
  stage: string
  plan(options: Options): Plan | Promise<Plan>
  /** Writes every split and `export_report.json` into `staging`, checks them, returns the report. */
  write(plan: Plan, staging: string): Report | Promise<Report>
}

/**
 * One release kind. `Context` is what reading and checking a row needs (the task, the dataset, the
 * family's validator); `Validate` the validator's options.
 */
export interface ReleaseKind<Options extends ReleaseTarget, Plan, Report, Context, Validate, Validation extends ReleaseValidation>
  extends ReleaseExportSteps<Options, Plan, Report> {
  /** The CLI group: `releaseops release <command> …`. */
  command: 'sft' | 'rl' | 'trajectories' | 'mixture'
  /** The `format` id of its `export_report.json`. */
  format: string
  columns(context: Context): ParquetField[]
  /** Plans, writes and publishes (the export shell over `plan` and `write`). */
  export(options: Options): Promise<Report>
  /** One split's rows, read back with our reader. */
  readRows(path: string, context: Context): Promise<Record<string, unknown>[]>
  checkRow(row: Record<string, unknown>, context: Context): InputIssue[]
  /** Reads a published release back and checks every row, the splits and the report's hashes. */
  validate(options: Validate): Validation | Promise<Validation>
}

/** A kind of any type parameters (for lists of kinds). */
// biome-ignore lint/suspicious/noExplicitAny: a list of kinds holds kinds of different option types.
export type AnyReleaseKind = ReleaseKind<any, any, any, any, any, ReleaseValidation>
