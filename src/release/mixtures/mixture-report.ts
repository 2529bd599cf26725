/**
 * @module release/mixtures: the mixture release's `export_report.json` and the shape of its validation
 * report. Lineage is recorded as hashes (inputs' reports and files, task files, the grading manifest and
 * each dataset's grading standard), never as machine paths, so two builds from the same inputs are
 * byte-identical wherever the inputs live.
 */
import type { SamplingPolicy } from './mixture-plan.js'

export const mixtureReleaseFormat = 'releaseops-verl-mixture-v1'
export const mixtureFamilies = ['sft', 'rl-cascade', 'trajectory'] as const
export type MixtureFamily = (typeof mixtureFamilies)[number]

export interface MixtureSplitReport {
  rows: number
  parquet_sha256: string
  input_source_counts: Record<string, number>
  source_counts: Record<string, number>
  achieved_weights: Record<string, number>
}

export interface MixtureReport {
  format: typeof mixtureReleaseFormat
  family: MixtureFamily
  /** rl-cascade and trajectory: the native trajectory format the rows follow. */
  trajectory_format?: string
  datasets: string[]
  row_format: string
  release: { status: 'passed'; published: true; artifacts_sha256: Record<string, string> }
  label_gap_gate: { status: 'passed'; blocking: never[]; waived: never[]; blocking_levels: never[]; waived_levels: never[] }
  sampling: {
    policy: SamplingPolicy
    train_input_source_counts: Record<string, number>
    train_source_counts: Record<string, number>
    train_achieved_weights: Record<string, number>
  }
  task: {
    registry_sha256: string
    corpus_sha256: string
    task_config_sha256: string | null
    metadata_fields: string[]
    task_name: string
  }
  grading_manifest: { sha256: string; datasets: Record<string, { sha256: string; levels: string[]; gt_field: string }> }
  inputs: Record<string, { format: string; export_report_sha256: string; parquet_sha256: Record<string, string> }>
  splits: Record<string, MixtureSplitReport>
  validation: MixtureValidationReport
  [key: string]: unknown
}

export interface MixtureValidationReport {
  format: string
  valid: boolean
  family: string
  datasets: string[]
  splits: Record<string, { rows: number; error_count: number; errors: string[] }>
  cross_split_errors: string[]
  report_errors: string[]
  lineage_errors: string[]
}
