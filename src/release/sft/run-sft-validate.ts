/**
 * @module release/sft: `releaseops release sft validate`: reads a legacy SFT release back with an
 * independent reader (hyparquet), checks every row, the stage pairs, split overlap and the hashes recorded
 * in `export_report.json`, and writes a validation report. The caller exits non-zero when it is invalid.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parquetMetadata, parquetReadObjects } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'
import type { GradingTask } from '../../envs/grading/grading-task.js'
import { LegacyPromptBuilder } from '../../envs/grading/legacy/legacy-prompts.js'
import { sha256Hex } from '../../io/sha256.js'
import { splitNames } from '../contracts/canonical-record.js'
import { type ValidationReportTarget, validateRelease } from '../kinds/validate-release.js'
import type { TaskOptions } from '../planning/task-options.js'
import { legacySftFormat } from './legacy-sft-rows.js'
import { checkLegacyRow, type RowCheckContext, StagePairs } from './validate-legacy-rows.js'

export interface SftValidationReport {
  format: string
  valid: boolean
  metadata_fields: string[]
  splits: Record<string, { rows: number; error_count: number; errors: string[] }>
  cross_split_errors: string[]
  report_errors: string[]
}

const maxListedErrors = 50

export async function runSftValidate(
  options: TaskOptions & ValidationReportTarget & { datasetDir: string },
): Promise<SftValidationReport> {
  return validateRelease(options, (loaded) => validateLegacySftRelease(options.datasetDir, loaded.task))
}

/** The row check's context for a task. */
export function legacyRowContext(task: GradingTask): RowCheckContext {
  const fields = task.taskConfig.metadata_fields
  return { task, builder: new LegacyPromptBuilder(task, fields), fields }
}

/** Reads a legacy SFT release back and checks every row, the stage pairs, split overlap and its hashes. */
async function validateLegacySftRelease(directory: string, task: GradingTask): Promise<SftValidationReport> {
  const context = legacyRowContext(task)
  const fields = context.fields
  const report: SftValidationReport = {
    format: legacySftFormat,
    valid: true,
    metadata_fields: [...fields],
    splits: {},
    cross_split_errors: [],
    report_errors: [],
  }
  const sourcesBySplit = new Map<string, Set<string>>()
  const hashes: Record<string, string> = {}
  for (const split of splitNames) {
    const path = join(directory, `${split}.parquet`)
    const details = { rows: 0, error_count: 0, errors: [] as string[] }
    const fail = (message: string) => {
      details.error_count++
      if (details.errors.length < maxListedErrors) details.errors.push(message)
    }
    report.splits[split] = details
    if (!existsSync(path)) {
      fail(`missing parquet file ${split}.parquet`)
      continue
    }
    const bytes = readFileSync(path)
    hashes[`${split}.parquet`] = sha256Hex(bytes)
    const pairs = new StagePairs()
    try {
      const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
      const metadata = parquetMetadata(file)
      let rowStart = 0
      for (const group of metadata.row_groups) {
        const rowEnd = rowStart + Number(group.num_rows)
        const rows = (await parquetReadObjects({ file, metadata, compressors, rowStart, rowEnd })) as Record<string, unknown>[]
        rows.forEach((row, offset) => {
          for (const issue of checkLegacyRow(row, context)) fail(`row ${rowStart + offset}: ${issue.message}`)
          pairs.add(row)
        })
        details.rows += rows.length
        rowStart = rowEnd
      }
      if (details.rows === 0) fail('a split must hold at least one row')
      for (const error of pairs.errors()) fail(error)
    } catch (error) {
      fail(`cannot read parquet: ${(error as Error).message}`)
    }
    sourcesBySplit.set(split, pairs.sourceIds())
  }
  for (const [index, left] of splitNames.entries()) {
    for (const right of splitNames.slice(index + 1)) {
      const overlap = [...(sourcesBySplit.get(left) ?? [])].filter((id) => sourcesBySplit.get(right)?.has(id))
      if (overlap.length > 0)
        report.cross_split_errors.push(`source_id overlap between ${left} and ${right}: ${overlap.slice(0, 5).join(', ')}`)
    }
  }
  const exportReportPath = join(directory, 'export_report.json')
  if (!existsSync(exportReportPath)) report.report_errors.push('export_report.json is missing')
  else {
    try {
      const exported = JSON.parse(readFileSync(exportReportPath, 'utf8')) as {
        format?: string
        release?: { artifacts_sha256?: Record<string, string> }
      }
      if (exported.format !== legacySftFormat)
        report.report_errors.push(`export_report.json format is ${exported.format}, not ${legacySftFormat}`)
      for (const [name, digest] of Object.entries(hashes)) {
        if (exported.release?.artifacts_sha256?.[name] !== digest)
          report.report_errors.push(`${name} sha256 ${digest} does not match export_report.json`)
      }
    } catch (error) {
      report.report_errors.push(`export_report.json is not valid JSON: ${(error as Error).message}`)
    }
  }
  report.valid =
    Object.values(report.splits).every((split) => split.error_count === 0) &&
    report.cross_split_errors.length === 0 &&
    report.report_errors.length === 0
  return report
}
