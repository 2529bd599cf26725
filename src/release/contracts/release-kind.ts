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

/** The types a kind fills in. */
export interface ReleaseKindTypes {
  options: ReleaseTarget
  plan: unknown
  report: unknown
  /** What a row context is made from (the task and the dataset; a mixture's family and tasks). */
  source: unknown
  /** What reading and checking a row needs (the task, the dataset, prompts built once). */
  context: unknown
  /** The validator's options. */
  validate: unknown
  validation: ReleaseValidation
}

/** One release kind. */
export interface ReleaseKind<T extends ReleaseKindTypes> extends ReleaseExportSteps<T['options'], T['plan'], T['report']> {
  /** The CLI group: `releaseops release <command> …`. */
  command: 'sft' | 'rl' | 'trajectories' | 'mixture'
  /** The `format` id of its `export_report.json`. */
  format: string
  /** Plans, writes and publishes (the export shell over `plan` and `write`). */
  export(options: T['options']): Promise<T['report']>
  rowContext(source: T['source']): T['context']
  columns(context: T['context']): ParquetField[]
  /** One split's rows, read back with the reader its validator uses. */
  readRows(path: string, context: T['context']): Promise<Record<string, unknown>[]>
  checkRow(row: Record<string, unknown>, context: T['context']): InputIssue[]
  /** Reads a published release back and checks every row, the splits and the report's hashes. */
  validate(options: T['validate']): T['validation'] | Promise<T['validation']>
}

/** A kind of any types (for lists of kinds). */
// biome-ignore lint/suspicious/noExplicitAny: a list of kinds holds kinds of different types.
export type AnyReleaseKind = ReleaseKind<any>
