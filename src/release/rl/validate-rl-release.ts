/**
 * @module release/rl: reads an RL release back (hyparquet, an independent reader from the writer) and
 * checks every row, the stage pairs (one stage-1 and one stage-2 row per source with the same labels and
 * metadata), the row order (source id ascending, stage 1 first), split overlap and, when an
 * `export_report.json` is present, the format and every artifact hash it records.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { GradingTask } from '../../envs/grading/grading-task.js'
import { splitNames } from '../contracts/canonical-record.js'
import { checkRlRow, rlRowContext } from './check-rl-row.js'
import { readRlParquet } from './rl-parquet.js'
import { rlReleaseFormat } from './rl-row.js'

export interface RlValidationReport {
  format: string
  valid: boolean
  dataset: string
  metadata_fields: string[]
  splits: Record<string, { rows: number; sources: number; error_count: number; errors: string[] }>
  cross_split_errors: string[]
  report_errors: string[]
}

/** The validation report plus, when asked for, the rows read (so a caller need not read them twice). */
export interface RlReleaseRead {
  report: RlValidationReport
  rows: Record<string, Record<string, unknown>[]>
  hashes: Record<string, string>
}

const maxListedErrors = 50

interface PairState {
  stages: string[]
  labels: string
}

function pairErrors(rows: readonly Record<string, unknown>[]): { errors: string[]; sources: Set<string> } {
  const pairs = new Map<string, PairState>()
  const errors: string[] = []
  let previous = ''
  rows.forEach((row, index) => {
    const extra = row.extra_info as Record<string, unknown> | null
    const sourceId = extra?.source_id
    if (typeof sourceId !== 'string') return
    const stage = String(extra?.stage)
    const order = `${sourceId}\u0000${stage}`
    if (order < previous) errors.push(`row ${index}: rows must be ordered by source_id, stage1 before stage2`)
    previous = order
    const labels = JSON.stringify([
      (row.reward_model as Record<string, unknown> | null)?.ground_truth,
      extra?.ground_truth_level,
      extra?.metadata,
    ])
    const entry = pairs.get(sourceId)
    if (!entry) pairs.set(sourceId, { stages: [stage], labels })
    else {
      entry.stages.push(stage)
      if (entry.labels !== labels) entry.labels = '\u0000mismatch'
    }
  })
  for (const [sourceId, entry] of pairs) {
    if (entry.stages.slice().sort().join(',') !== 'stage1,stage2')
      errors.push(`source_id ${sourceId} must have exactly one stage1 and one stage2 row, has ${entry.stages.join(', ')}`)
    else if (entry.labels === '\u0000mismatch')
      errors.push(`source_id ${sourceId} must share ground truth, level and metadata across stages`)
  }
  return { errors, sources: new Set(pairs.keys()) }
}

export interface ValidateRlReleaseOptions {
  directory: string
  dataset: string
  task: GradingTask
  /** Check `export_report.json` (absent while the release is still being staged). */
  checkReport?: boolean
}

/** Validates the release in `directory` against the task it was exported from. */
export async function validateRlRelease(options: ValidateRlReleaseOptions): Promise<RlValidationReport> {
  return (await readRlRelease(options)).report
}

/** Reads and validates every split of a release, keeping the rows. */
export async function readRlRelease(options: ValidateRlReleaseOptions): Promise<RlReleaseRead> {
  const fields = options.task.taskConfig.metadata_fields
  const context = rlRowContext({ dataset: options.dataset, task: options.task })
  const report: RlValidationReport = {
    format: rlReleaseFormat,
    valid: true,
    dataset: options.dataset,
    metadata_fields: [...fields],
    splits: {},
    cross_split_errors: [],
    report_errors: [],
  }
  const sourcesBySplit = new Map<string, Set<string>>()
  const hashes: Record<string, string> = {}
  const rowsBySplit: Record<string, Record<string, unknown>[]> = {}
  for (const split of splitNames) {
    const path = join(options.directory, `${split}.parquet`)
    const details = { rows: 0, sources: 0, error_count: 0, errors: [] as string[] }
    report.splits[split] = details
    const fail = (message: string) => {
      details.error_count++
      if (details.errors.length < maxListedErrors) details.errors.push(message)
    }
    if (!existsSync(path)) {
      fail(`missing parquet file ${split}.parquet`)
      continue
    }
    try {
      const file = await readRlParquet(path, { metadataFields: fields, candidates: true })
      hashes[`${split}.parquet`] = file.sha256
      rowsBySplit[split] = file.rows
      file.rows.forEach((row, index) => {
        for (const issue of checkRlRow(row, context)) fail(`row ${index}: ${issue.message}`)
      })
      const pairs = pairErrors(file.rows)
      for (const error of pairs.errors) fail(error)
      details.rows = file.rows.length
      details.sources = pairs.sources.size
      if (file.rows.length === 0) fail('a split must hold at least one row')
      sourcesBySplit.set(split, pairs.sources)
    } catch (error) {
      fail(`cannot read parquet: ${(error as Error).message}`)
    }
  }
  for (const [index, left] of splitNames.entries()) {
    for (const right of splitNames.slice(index + 1)) {
      const overlap = [...(sourcesBySplit.get(left) ?? [])].filter((id) => sourcesBySplit.get(right)?.has(id))
      if (overlap.length > 0)
        report.cross_split_errors.push(`source_id overlap between ${left} and ${right}: ${overlap.slice(0, 5).join(', ')}`)
    }
  }
  if (options.checkReport !== false) report.report_errors.push(...exportReportErrors(options.directory, hashes))
  report.valid =
    Object.values(report.splits).every((split) => split.error_count === 0) &&
    report.cross_split_errors.length === 0 &&
    report.report_errors.length === 0
  return { report, rows: rowsBySplit, hashes }
}

function exportReportErrors(directory: string, hashes: Record<string, string>): string[] {
  const path = join(directory, 'export_report.json')
  if (!existsSync(path)) return ['export_report.json is missing']
  let exported: { format?: unknown; release?: { artifacts_sha256?: Record<string, unknown> } }
  try {
    exported = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    return [`export_report.json is not valid JSON: ${(error as Error).message}`]
  }
  const errors: string[] = []
  if (exported.format !== rlReleaseFormat)
    errors.push(`export_report.json format is ${String(exported.format)}, not ${rlReleaseFormat}`)
  for (const [name, digest] of Object.entries(hashes)) {
    if (exported.release?.artifacts_sha256?.[name] !== digest)
      errors.push(`${name} sha256 ${digest} does not match export_report.json`)
  }
  return errors
}
