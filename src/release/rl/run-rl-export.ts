/**
 * @module release/rl: `releaseops release rl export`: a stage-1/stage-2 RL pair per trainable record, in
 * the five VeRL columns, one Parquet file per split plus `export_report.json`. The canonical contract and
 * the label-gap gate are checked first (the same plan as the SFT export); the files are written into a
 * staging directory, read back and validated row by row, hashed, and only then renamed into place. A
 * failure writes a failed-audit JSON and publishes nothing.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'
import { nativeToolTrajectoryFormat } from '../../envs/grading/native-prompt.js'
import { splitNames } from '../contracts/canonical-record.js'
import { exportInputs, type PublishedRelease, publishedRelease, taskIdentity } from '../contracts/export-report-parts.js'
import type { ReleaseExportSteps } from '../contracts/release-kind.js'
import { exportRelease } from '../kinds/export-release.js'
import { type PreparedRecordExport, prepareRecordExport, type RecordExportOptions } from '../planning/prepare-record-export.js'
import { type LabelGapGate, recordRowInputs } from '../planning/record-plan.js'
import { RlRowBuilder } from './build-rl-rows.js'
import { writeRlParquet } from './rl-parquet.js'
import { rlReleaseFormat } from './rl-row.js'
import { type RlValidationReport, validateRlRelease } from './validate-rl-release.js'

export type RunRlExportOptions = RecordExportOptions

export interface RlExportReport {
  format: string
  trajectory_format: string
  dataset: string
  label_gap_gate: LabelGapGate
  splits: Record<
    string,
    {
      records: number
      rows: number
      stage1_rows: number
      stage2_rows: number
      skipped_no_grading_label: number
      parquet_sha256: string
    }
  >
  validation: RlValidationReport & { checks: string[] }
  release: PublishedRelease
  [key: string]: unknown
}

/** Writes, reads back and validates the split files in `staging`; returns the report (not yet written). */
async function stageRelease(options: PreparedRecordExport & { staging: string }): Promise<RlExportReport> {
  const { plan, loaded, dataset } = options
  const task = loaded.task
  const fields = task.taskConfig.metadata_fields
  const builder = new RlRowBuilder({ dataset, task })
  const splits: RlExportReport['splits'] = {}
  for (const split of splitNames) {
    const rows = builder.rows(recordRowInputs(plan.splits[split], fields))
    const parquetSha256 = writeRlParquet({
      path: join(options.staging, `${split}.parquet`),
      rows,
      metadataFields: fields,
      candidates: true,
    })
    splits[split] = {
      records: plan.splits[split].length,
      rows: rows.length,
      stage1_rows: plan.splits[split].length,
      stage2_rows: plan.splits[split].length,
      skipped_no_grading_label: plan.skippedNoLevel[split],
      parquet_sha256: parquetSha256,
    }
  }
  const validation = await validateRlRelease({ directory: options.staging, dataset, task, checkReport: false })
  for (const split of splitNames) {
    if (validation.splits[split]?.rows !== splits[split]?.rows) validation.valid = false
  }
  if (!validation.valid) {
    const first = Object.entries(validation.splits).find(([, details]) => details.error_count > 0)
    throw new ReleaseOpsError({
      code: 'staged_release_invalid',
      path: options.staging,
      message: `The staged RL release failed validation: ${first ? `${first[0]}: ${first[1].errors[0]}` : (validation.cross_split_errors[0] ?? 'row counts differ from the plan')}`,
      details: {
        errors: Object.fromEntries(
          Object.entries(validation.splits).map(([split, details]) => [split, details.errors.slice(0, 5)]),
        ),
        cross_split_errors: validation.cross_split_errors,
      },
    })
  }
  return {
    format: rlReleaseFormat,
    version: 'verl >= 0.9 five-column RL rows (RLHFDataset, tool agent loop)',
    trajectory_format: nativeToolTrajectoryFormat,
    dataset,
    label_source: 'canonical target.category_id (resolution_status == resolved)',
    prompt_identity: 'stage1: the grading env native-v2 prompt (choice ids only); stage2: the legacy reranker prompt',
    candidate_policy: 'stage2: ground_truth + first four other registry ids, permuted by sha256(source_id)',
    split_source: 'embedded_v2',
    row_order: 'source_id ascending, stage1 then stage2',
    ...taskIdentity(task),
    corpus_size: task.corpus.size,
    canonical_resolved: plan.canonicalResolved,
    grading: {
      enabled: true,
      levels: [...task.grading.levels],
      gt_field: task.grading.gt_field,
      standard_sha256: loaded.hashes.grading,
    },
    inputs: exportInputs({ canonicalSha256: options.canonicalSha256, loaded }),
    label_gap_gate: plan.gate,
    splits,
    validation: {
      ...validation,
      checks: [
        'canonical contract',
        'label-gap gate',
        'every row rebuilt and checked after reading back',
        'stage pairs',
        'row order',
        'split overlap',
      ],
    },
    release: publishedRelease(splits),
  }
}

export const rlExportSteps: ReleaseExportSteps<RunRlExportOptions, PreparedRecordExport, RlExportReport> = {
  stage: 'rl export',
  plan: prepareRecordExport,
  async write(prepared, staging) {
    const report = await stageRelease({ ...prepared, staging })
    writeFileSync(join(staging, 'export_report.json'), `${JSON.stringify(report, null, 2)}\n`)
    return report
  },
}

export async function runRlExport(options: RunRlExportOptions): Promise<RlExportReport> {
  return exportRelease(rlExportSteps, options)
}
