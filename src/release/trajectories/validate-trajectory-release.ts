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
import type { InputIssue } from '../../core/errors/invalid-input-error.js'
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

/** The files in a release directory that do not belong there, in sorted order. */
export function unexpectedFiles(names: readonly string[]): string[] {
  return [...names]
    .sort()
    .filter((name) => !releaseFiles.includes(name) && name !== validationReportFile)
    .map((name) => `unexpected file ${name} in the release`)
}

/** Valid when no split, no cross-split check and no report check found an error. */
export function releaseIsValid(report: Omit<TrajectoryValidationReport, 'valid'>): boolean {
  return (
    splitNames.every((split) => report.splits[split].error_count === 0) &&
    report.cross_split_errors.length === 0 &&
    report.report_errors.length === 0
  )
}

type ObservedSplit = { rows: number; classes: Record<TrajectoryClass, number>; calls: number; ids: string[]; sha256: string }

/** What every split's walk shares: the row context, the canonical records by id, and the source ids seen so far. */
interface ReleaseWalk {
  options: ValidateTrajectoryReleaseOptions
  context: ReturnType<typeof trajectoryRowContext>
  canonicalById: Map<string, CanonicalRecord> | undefined
  seen: Map<string, SplitName>
  report: TrajectoryValidationReport
  maxListed: number
}

/** One row's issues: its own checks, its canonical provenance, a source id repeated in the split. */
function rowIssues(walk: ReleaseWalk, split: SplitName, raw: unknown, where: string): InputIssue[] {
  const row = raw as Partial<TrajectoryRow>
  const sourceId = typeof row.source_id === 'string' ? row.source_id : '?'
  const errors = checkTrajectoryRow(raw, walk.context)
  if (walk.canonicalById)
    for (const message of canonicalProvenanceErrors({
      row,
      split,
      task: walk.options.task,
      canonicalById: walk.canonicalById,
    }))
      errors.push({ code: 'trajectory_provenance', path: 'source_id', message })
  const other = walk.seen.get(sourceId)
  if (other !== undefined && sourceId !== '?') {
    if (other === split)
      errors.push({ code: 'trajectory_repeat', path: 'source_id', message: 'source_id repeats within the split' })
    else walk.report.cross_split_errors.push(`source_id ${sourceId} is in ${other} and in ${split} (${split} ${where})`)
  }
  walk.seen.set(sourceId, split)
  return errors
}

/** Reads and checks one split's rows into its report entry; what it observed, for the export report's check. */
function validateSplit(walk: ReleaseWalk, split: SplitName): ObservedSplit | undefined {
  const details: SplitValidation = { rows: 0, error_count: 0, errors: [] }
  walk.report.splits[split] = details
  const fail = (message: string) => {
    details.error_count++
    if (details.errors.length < walk.maxListed) details.errors.push(message)
  }
  const path = join(walk.options.dir, `${split}.parquet`)
  if (!existsSync(path)) {
    fail(`missing ${split}.parquet`)
    return undefined
  }
  const bytes = readFileSync(path)
  const stats: ObservedSplit = {
    rows: 0,
    classes: { direct: 0, single_tool: 0, multi_tool: 0, no_result: 0 },
    calls: 0,
    ids: [],
    sha256: sha256Hex(bytes),
  }
  readTrajectoryRows({
    bytes,
    metadataFields: walk.options.task.taskConfig.metadata_fields,
    tools: walk.context.tools,
    onError: (message) => fail(`cannot read ${split}.parquet: ${message}`),
    onRow: (raw, index) => {
      details.rows++
      const row = raw as Partial<TrajectoryRow>
      const sourceId = typeof row.source_id === 'string' ? row.source_id : '?'
      const where = `row ${index} (source_id ${sourceId})`
      const errors = rowIssues(walk, split, raw, where)
      for (const issue of errors) fail(`${where}: ${issue.message}`)
      stats.ids.push(sourceId)
      if (row.trajectory_class && row.trajectory_class in stats.classes) stats.classes[row.trajectory_class]++
      stats.calls += Array.isArray(row.tool_calls) ? row.tool_calls.length : 0
      if (errors.length === 0) walk.options.onValidRow?.(split, raw as TrajectoryRow)
    },
  })
  stats.rows = details.rows
  if (details.rows === 0 && details.error_count === 0) fail(`${split}.parquet holds no rows`)
  return stats
}

export function validateTrajectoryRelease(options: ValidateTrajectoryReleaseOptions): TrajectoryValidationReport {
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
  if (existsSync(options.dir)) report.report_errors.push(...unexpectedFiles(readdirSync(options.dir)))
  const context = trajectoryRowContext({
    task: options.task,
    dataset,
    ...(exported ? { declared: { thinkSource: exported.think.source, maxThinkTokens: exported.think.max_think_tokens } } : {}),
  })
  const canonicalById = options.canonical ? new Map(options.canonical.map((record) => [record.id, record])) : undefined
  const walk: ReleaseWalk = { options, context, canonicalById, seen: new Map(), report, maxListed: options.maxListedErrors ?? 50 }
  const observed: Record<string, ObservedSplit> = {}
  for (const split of splitNames) {
    const stats = validateSplit(walk, split)
    if (stats) observed[split] = stats
  }
  if (canonicalById) {
    const missing = [...expectedReleaseIds(options.canonical ?? [], options.task)].filter((id) => !walk.seen.has(id))
    if (missing.length > 0)
      report.cross_split_errors.push(
        `${missing.length} trainable canonical record(s) have no row, first: ${missing.slice(0, 5).join(', ')}`,
      )
  }
  if (exported) report.report_errors.push(...reportConsistencyErrors(exported, observed, dataset))
  report.valid = releaseIsValid(report)
  return report
}
