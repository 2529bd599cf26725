/**
 * @module release/trajectories: `validateTrajectoryRelease`, the library check of a published (or
 * staged) trajectory release: each split's Parquet read back against the release schema with our own
 * reader, every row checked and its tool calls re-executed (`checkTrajectoryRow`), no source id in two
 * splits, the export report's format, counts, source-id digests and artifact hashes, nothing else in the
 * directory and, given the canonical records, every row's provenance and split. Never throws for a bad
 * release: the report says what is wrong, by split, row and reason.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { GradingTask } from '../../envs/grading/grading-task.js'
import { sha256Hex } from '../../io/sha256.js'
import { type CanonicalRecord, type SplitName, splitNames } from '../contracts/canonical-record.js'
import { canonicalProvenanceErrors, expectedReleaseIds } from './canonical-provenance.js'
import { checkTrajectoryRow, promptTokenErrors, trajectoryRowContext } from './check-trajectory-row.js'
import { readTrajectoryRows } from './read-trajectory-rows.js'
import { readExportReport, reportConsistencyErrors } from './report-consistency.js'
import type { TrajectoryClass } from './trajectory-class.js'
import { trajectoryReleaseFormat } from './trajectory-format.js'
import type { TrajectoryRow } from './trajectory-row.js'

export interface SplitValidation {
  rows: number
  error_count: number
  errors: string[]
}

export interface TrajectoryValidationReport {
  format: typeof trajectoryReleaseFormat
  valid: boolean
  dataset: string | null
  splits: Record<SplitName, SplitValidation>
  cross_split_errors: string[]
  report_errors: string[]
  checks: string[]
}

export interface ValidateTrajectoryReleaseOptions {
  dir: string
  task: GradingTask
  /** The dataset the rows must name (default: the export report's). */
  dataset?: string
  /** The canonical records the release was exported from: rows are checked against them. */
  canonical?: readonly CanonicalRecord[]
  /** Called with every row that passed its checks (how `loadTrajectoryRelease` collects rows). */
  onValidRow?: (split: SplitName, row: TrajectoryRow) => void
  maxListedErrors?: number
}

const releaseFiles = [...splitNames.map((split) => `${split}.parquet`), 'export_report.json']
/** A validator's own report, which the runbook writes into release directories (never hashed, never read). */
const validationReportFile = 'validation.json'

const rowChecks = [
  'exact row schema (Parquet schema and every row)',
  'trajectory class by sha256 rule',
  'message structure and tool-call ids',
  "system and user prompts rebuilt by the env's reset",
  "tools column equals the env's tools",
  'every tool call re-executed: byte-identical tool messages',
  "search arguments equal the record's metadata",
  'detail/example ids come from earlier results',
  'the class plan',
  'no_result never surfaces the answer',
  'the canonical ground truth never appears in system/user',
  'terminal answer rewarded 1.0 by the env',
  'thoughts: closed, no template tokens, no answer leak, within the token limit',
  'no source id in two splits',
  'export report: format, counts per split and class, source-id digests, artifact hashes',
  'no other file in the release (but a validation.json report)',
]

export function validateTrajectoryRelease(options: ValidateTrajectoryReleaseOptions): TrajectoryValidationReport {
  const maxListed = options.maxListedErrors ?? 50
  const report: TrajectoryValidationReport = {
    format: trajectoryReleaseFormat,
    valid: false,
    dataset: null,
    splits: {} as Record<SplitName, SplitValidation>,
    cross_split_errors: [],
    report_errors: [],
    checks: options.canonical ? [...rowChecks, 'canonical provenance, labels and split of every row'] : [...rowChecks],
  }
  const exported = readExportReport(options.dir, report.report_errors)
  report.report_errors.push(...promptTokenErrors(options.task))
  const dataset = options.dataset ?? exported?.dataset ?? ''
  report.dataset = dataset || null
  if (existsSync(options.dir)) {
    for (const name of readdirSync(options.dir).sort())
      if (!releaseFiles.includes(name) && name !== validationReportFile)
        report.report_errors.push(`unexpected file ${name} in the release`)
  }
  const context = trajectoryRowContext({
    task: options.task,
    dataset,
    ...(exported ? { declared: { thinkSource: exported.think.source, maxThinkTokens: exported.think.max_think_tokens } } : {}),
  })
  const tools = context.tools
  const canonicalById = options.canonical ? new Map(options.canonical.map((record) => [record.id, record])) : undefined
  const seen = new Map<string, SplitName>()
  const observed: Record<
    string,
    { rows: number; classes: Record<TrajectoryClass, number>; calls: number; ids: string[]; sha256: string }
  > = {}
  for (const split of splitNames) {
    const details: SplitValidation = { rows: 0, error_count: 0, errors: [] }
    report.splits[split] = details
    const fail = (message: string) => {
      details.error_count++
      if (details.errors.length < maxListed) details.errors.push(message)
    }
    const path = join(options.dir, `${split}.parquet`)
    if (!existsSync(path)) {
      fail(`missing ${split}.parquet`)
      continue
    }
    const bytes = readFileSync(path)
    const stats = {
      rows: 0,
      classes: { direct: 0, single_tool: 0, multi_tool: 0, no_result: 0 },
      calls: 0,
      ids: [] as string[],
      sha256: sha256Hex(bytes),
    }
    observed[split] = stats
    readTrajectoryRows({
      bytes,
      metadataFields: options.task.taskConfig.metadata_fields,
      tools,
      onError: (message) => fail(`cannot read ${split}.parquet: ${message}`),
      onRow: (raw, index) => {
        details.rows++
        const row = raw as Partial<TrajectoryRow>
        const sourceId = typeof row.source_id === 'string' ? row.source_id : '?'
        const where = `row ${index} (source_id ${sourceId})`
        const errors = checkTrajectoryRow(raw, context)
        if (canonicalById)
          for (const message of canonicalProvenanceErrors({ row, split, task: options.task, canonicalById }))
            errors.push({ code: 'trajectory_provenance', path: 'source_id', message })
        const other = seen.get(sourceId)
        if (other !== undefined && sourceId !== '?') {
          if (other === split)
            errors.push({ code: 'trajectory_repeat', path: 'source_id', message: 'source_id repeats within the split' })
          else report.cross_split_errors.push(`source_id ${sourceId} is in ${other} and in ${split} (${split} ${where})`)
        }
        seen.set(sourceId, split)
        for (const issue of errors) fail(`${where}: ${issue.message}`)
        stats.ids.push(sourceId)
        if (row.trajectory_class && row.trajectory_class in stats.classes) stats.classes[row.trajectory_class]++
        stats.calls += Array.isArray(row.tool_calls) ? row.tool_calls.length : 0
        if (errors.length === 0) options.onValidRow?.(split, raw as TrajectoryRow)
      },
    })
    stats.rows = details.rows
    if (details.rows === 0 && details.error_count === 0) fail(`${split}.parquet holds no rows`)
  }
  if (canonicalById) {
    const missing = [...expectedReleaseIds(options.canonical ?? [], options.task)].filter((id) => !seen.has(id))
    if (missing.length > 0)
      report.cross_split_errors.push(
        `${missing.length} trainable canonical record(s) have no row, first: ${missing.slice(0, 5).join(', ')}`,
      )
  }
  if (exported) report.report_errors.push(...reportConsistencyErrors(exported, observed, dataset))
  report.valid =
    splitNames.every((split) => report.splits[split].error_count === 0) &&
    report.cross_split_errors.length === 0 &&
    report.report_errors.length === 0
  return report
}
