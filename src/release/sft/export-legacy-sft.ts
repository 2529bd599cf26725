/**
 * @module release/sft: writes a planned legacy SFT release into a staging directory (in worker threads),
 * checks every staged file's row count and schema from its footer, and builds the export report.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'
import type { GradingTask } from '../../envs/grading/grading-task.js'
import { splitNames } from '../contracts/canonical-record.js'
import { exportInputs, type PublishedRelease, publishedRelease, taskIdentity } from '../contracts/export-report-parts.js'
import type { LoadedTask } from '../inputs/load-task-files.js'
import { readParquetFooter } from '../parquet/parquet-footer.js'
import { parquetSchemaOf } from '../parquet/parquet-shape.js'
import { type RecordPlan, recordRowInputs } from '../planning/record-plan.js'
import { type SftWriters, writeSftInWorkers } from '../workers/write-sft-in-workers.js'
import { legacySftColumns, legacySftFormat } from './legacy-sft-rows.js'

export interface SftExportReport {
  format: string
  dataset: string
  splits: Record<string, { records: number; rows: number; skipped_no_grading_label: number; parquet_sha256: string }>
  label_gap_gate: RecordPlan['gate']
  release: PublishedRelease
  [key: string]: unknown
}

export async function exportLegacySft(options: {
  staging: string
  dataset: string
  plan: RecordPlan
  loaded: LoadedTask
  /** The canonical input's hash (a promise when the canonical file is still being written). */
  canonicalSha256: string | Promise<string>
  onProgress?: (split: string) => void
  /** Writer threads started ahead of the export (see `SftWriters.start`). */
  writers?: SftWriters
}): Promise<SftExportReport> {
  const { plan, loaded } = options
  const task: GradingTask = loaded.task
  const fields = task.taskConfig.metadata_fields
  const path = (split: string) => join(options.staging, `${split}.parquet`)
  const jobs = Object.fromEntries(
    splitNames.map((split) => [split, { split, path: path(split), inputs: recordRowInputs(plan.splits[split], fields) }]),
  ) as Parameters<typeof writeSftInWorkers>[0]['jobs']
  const hashes = await writeSftInWorkers({
    task,
    assets: loaded.assets,
    jobs,
    ...(options.onProgress ? { onWritten: options.onProgress } : {}),
    ...(options.writers ? { writers: options.writers } : {}),
  })
  const schemaSize = parquetSchemaOf(legacySftColumns(fields).columns).length
  const splits: SftExportReport['splits'] = {}
  for (const split of splitNames) {
    const footer = readParquetFooter(path(split))
    const rows = plan.splits[split].length * 2
    if (Number(footer.num_rows) !== rows || footer.schema.length !== schemaSize || !hashes[split]) {
      throw new ReleaseOpsError({
        code: 'staged_release_invalid',
        path: path(split),
        message: `staged ${split}.parquet holds ${footer.num_rows} rows and ${footer.schema.length} schema elements, expected ${rows} and ${schemaSize}`,
      })
    }
    splits[split] = {
      records: plan.splits[split].length,
      rows,
      skipped_no_grading_label: plan.skippedNoLevel[split],
      parquet_sha256: hashes[split] as string,
    }
  }
  const report: SftExportReport = {
    format: legacySftFormat,
    dataset: options.dataset,
    label_source: 'canonical target.category_id (resolution_status == resolved)',
    prompt_identity: 'choice ids in messages; ground_truth and candidates stay canonical category_id',
    candidate_policy: 'ground_truth + first four other registry ids, permuted by sha256(source_id)',
    split_source: 'embedded_v2',
    ...taskIdentity(task),
    corpus_size: task.corpus.size,
    canonical_resolved: plan.canonicalResolved,
    grading: { levels: [...task.grading.levels], gt_field: task.grading.gt_field },
    inputs: exportInputs({ canonicalSha256: await options.canonicalSha256, loaded }),
    label_gap_gate: plan.gate,
    splits,
    validation: { valid: true, checks: ['canonical contract', 'label-gap gate', 'row count and schema of every staged file'] },
    release: publishedRelease(splits),
  }
  writeFileSync(join(options.staging, 'export_report.json'), `${JSON.stringify(report, null, 2)}\n`)
  return report
}
